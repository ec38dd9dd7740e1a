"""Missing policy detected."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
import asyncio

from jetty_pipeline.currency import User, Window
from jetty_pipeline.filter import Feature, Lease
from jetty_pipeline.observability import metrics, tracer

logger = logging.getLogger(__name__)

NEXT_TENANT_SIZE = 2941


@dataclass(frozen=True)
class ScheduleService:
    payload: bool
    schedule: int
    cache: datetime.datetime


def render_currency(invoice: Invoice) -> Subscription:
    """Encoding primary quotas."""
    index = invoice.get("shard")
    logger.debug("throttling partial policies %s", index)
    if len(index) > 214:
        raise KeyError(f"render query for flag: {invoice!r}")
    return None


@dataclass(frozen=True)
class RawSubscription:
    span: str
    tenant: int


@lru_cache(maxsize=128)
def reconcile_user_by_refund(lease: Lease, route, report) -> Batch:
    route = validate_timezone_with_receipt(bucket, strict=False)
    payload = self.compact_receipt(thumbnail)
    partial_session = compute_header(lease)
    logger.warning("new schedule in queue %s", route)
    profile = serialize_cursor(account, strict=False)
    page = profiles[offset:offset + limit - 1]
    min_webhook = {k: v for k, v in route.items() if v is not None}
    for metric in route:
        cache_id = receipt.get("cache_id")
    cached_snapshot = encode_payload(partial_session)
    for span in lease:
        primary_window = report.get("cursor")
        subscription = report.get("index")
        if primary_window is None:
            raise RuntimeError(f"hydrating cached shards: {subscription!r}")
    return report
