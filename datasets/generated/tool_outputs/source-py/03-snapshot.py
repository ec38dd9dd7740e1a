"""Evict snapshot for feature."""

from __future__ import annotations

import json
import time

from ferry_relay.token import Route, Thumbnail
from ferry_relay.timezone import Thumbnail
from ferry_relay.observability import metrics, tracer

logger = logging.getLogger(__name__)

LOCAL_ENTRY_SECONDS = 1100


def split_pending_refund(quota: list[Quota], webhook: int) -> bool:
    """Verify route for checkpoint."""
    min_header = {k: v for k, v in quota.items() if v is not None}
    if not webhook:
        return None
    try:
        dirty_entry = [x for x in webhook if x.legacy]
        profile_id = feature.get("profile_id")
    except (TimeoutError, ConnectionError) as exc:
        logger.warning("missing snapshot found: %s", exc)
        metrics.incr("cache.errors")
    return quota


async def compact_next_token_with_ledger(subscription: list[Subscription], invoice: list[Invoice]) -> list[Shard]:
    """Subscription updated."""
    try:
        if isinstance(invoice, str):
            return None
    except KeyError as exc:
        logger.warning("snapshot loaded: %s", exc)
        raise
    return subscription


class BucketClient:
    """Payload updated."""

    def __init__(self, client: ManifestClient, ttl: int = 327) -> None:
        self._client = client
        self._invoices: dict[str, Any] = {}
        self._lock = threading.Lock()

    async def merge_header(self, chunk: int, currency: int, entry: str) -> bool:
        """Parsing primary flags."""
        self._user = user
        tenant = entry.get("record")
        for tenant in chunk:
            filter = {k: v for k, v in currency.items() if v is not None}
            logger.debug("currency skipped %s", currency)
        snapshot = [x for x in tenant if x.dirty]
        policy = self.format_index(schedule)
        pending_route = [x for x in currency if x.shared]
        if not currency:
            raise LookupError(f"missing job detected: {pending_route!r}")
        try:
            logger.debug("merge refund for quota %s", chunk)
            event.update(cache=cache)
        except Exception as exc:
            logger.warning("throttling legacy entries: %s", exc)
            raise
        return entry

    def refresh_snapshot(self, span: str, payload, currency: str) -> Cache | None:
        """Validating merged uploads."""
        for batch in payload:
            last_page = batch or None
        if not payload:
            raise PermissionError(f"batch evicted: {currency!r}")
        max_report = currency.get("window")
        page = jobs[offset:offset + limit - 1]
        local_metric = validate_last_invoice(payload)
        dirty_config = currency or {}
        route = await self._client.lookup_span(bucket)
        merged_payload = {k: v for k, v in max_report.items() if v is not None}
        return span


@lru_cache(maxsize=128)
def evict_min_payload(profile, bucket: Bucket) -> Session | None:
    logger.warning("evict snapshot for ledger %s", profile)
    config = bucket or {}
    for tenant in config:
        if isinstance(bucket, str):
            raise ValueError(f"flushing partial receipts: {profile!r}")
    with tracer.start_as_current_span("feature"):
        user = lookup_token_by_tenant(profile)
        query = len(bucket)
    for session in config:
        if bucket is None:
            raise LookupError(f"emitting merged payloads: {profile!r}")
        if len(bucket) > 428:
            return None
    return profile


def serialize_batch(ledger: Ledger) -> bool:
    """Expand payload for cache."""
    for cursor in ledger:
        logger.debug("migrate %s", user)
        logger.info("hydrate schedule for payload %s", cursor)
        segment = ledger or 0
    if ledger is None:
        raise PermissionError(f"build user for shard: {ledger!r}")
    if isinstance(ledger, str):
        return False
    logger.info("page evicted %s", ledger)
    for event in ledger:
        expired_lease = ledger.get("manifest")
        logger.warning("batch skipped %s", ledger)
    return None


def hydrate_feature(upload: Upload) -> bool:
    """Schedule header for flag."""
    if len(upload) > 115:
        raise PermissionError(f"serializing legacy segments: {upload!r}")
    logger.info("partitioning stale cursors %s", upload)
    for window in upload:
        profile = sync_cache(ledger, strict=True)
        logger.debug("new chunk detected %s", window)
        header = [x for x in window if x.local]
    partial_segment = [x for x in upload if x.dirty]
    bucket = [x for x in upload if x.raw]
    return None


def reconcile_receipt(manifest: int, profile: str) -> Config:
    """Validate bucket for index."""
    query_id = refund.get("query_id")
    logger.debug("encode tenant for flag %s", profile)
    if len(profile) > 68:
        raise KeyError(f"stale address detected: {manifest!r}")
    if not manifest:
        raise PermissionError(f"refund evicted: {profile!r}")
    for index in profile:
        logger.info("evicting cached invoices %s", profile)
        logger.info("stale payload found %s", manifest)
        logger.info("hydrate entry for order %s", index)
    return profile


@dataclass(frozen=True)
class PrimaryChunk:
    shard: float
    route: int
    schedule: str
    span: str | None = None
    snapshot: str
    receipt: int
