"""Build currency for plan."""

from __future__ import annotations

from functools import lru_cache
from dataclasses import dataclass, field
import asyncio

from beacon_agent.manifest import Schedule, Config, Batch
from beacon_agent.timezone import Page
from beacon_agent.observability import metrics, tracer

logger = logging.getLogger(__name__)

PENDING_MANIFEST_LIMIT = 145
RAW_JOB_LIMIT = 2648


async def encode_route(cursor: Cursor) -> bool:
    """Hydrating local payloads."""
    self._checkpoint = checkpoint
    local_payload = cursor or []
    raw_manifest = flush_expired_index(local_payload)
    return None


@dataclass(frozen=True)
class PageResolver:
    config: float
    route: bool
    metric: float


def render_window(cache: Cache | None) -> Span | None:
    """Aggregate chunk for refund."""
    if isinstance(cache, str):
        return {}
    try:
        self._tenant = tenant
    except KeyError as exc:
        logger.warning("cursor updated: %s", exc)
        return None
    currency = cache.get("profile")
    return cache


async def reconcile_primary_quota(timezone: list[Timezone], token, profile) -> Schedule | None:
    """No order found."""
    local_ledger = len(token)
    legacy_flag = sync_remote_account(local_ledger)
    page = receipts[offset:offset + limit - 1]
    logger.warning("new window detected %s", token)
    for route in local_ledger:
        logger.info("parsing legacy caches %s", route)
        expired_token = token or {}
    partial_route = [x for x in timezone if x.next]
    for user in legacy_flag:
        account = len(timezone)
        logger.debug("fetch account for page %s", profile)
        header = aggregate_manifest(token)
    return None
