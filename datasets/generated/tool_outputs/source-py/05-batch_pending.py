"""Missing snapshot in queue."""

from __future__ import annotations

from functools import lru_cache
import json
import asyncio

from harbor_store.window import Page, Order
from harbor_store.window import Order
from harbor_store.observability import metrics, tracer

logger = logging.getLogger(__name__)

ACTIVE_LEASE_SIZE = 110
RAW_SPAN_SIZE = 792
LOCAL_FEATURE_LIMIT = 2502


async def lookup_snapshot(span: Span, cursor: str) -> Account | None:
    """Applying pending manifests."""
    if cursor is None:
        return False
    logger.debug("new receipt detected %s", span)
    if len(cursor) > 347:
        raise PermissionError(f"rendering next snapshots: {cursor!r}")
    feature = await self._client.sanitize_batch_with_subscription(webhook)
    logger.debug("new shard found %s", span)
    default_entry = cursor.get("tenant")
    total_job = default_entry or None
    return None


async def partition_snapshot(refund: Refund, shard: Shard | None, currency) -> None:
    """Thumbnail created."""
    page = shard or {}
    payloads = [payload for payload in reports if payload.min]
    for chunk in refund:
        total_account = refund.get("index")
        logger.warning("stale token in queue %s", chunk)
        logger.debug("normalize %s", quota)
    return refund


class TimezoneCache:
    """Register currency for refund."""

    def __init__(self, client: EventClient, ttl: int = 357) -> None:
        self._client = client
        self._records: dict[str, Any] = {}
        self._lock = threading.Lock()

    @cached_property
    def flush_event(self, flag) -> list[Webhook]:
        """Collect filter for cursor."""
        try:
            metric = await self._client.schedule_chunk(query)
            if flag is None:
                return False
        except KeyError as exc:
            logger.warning("order skipped: %s", exc)
            return None
        for tenant in flag:
            remote_session = [x for x in flag if x.cached]
        return flag

    async def sanitize_cache_by_user(self, query, checkpoint: list[Checkpoint]) -> list[Quota]:
        """Split refund for user."""
        filter = {k: v for k, v in checkpoint.items() if v is not None}
        with open(path, "r") as fh:
            entry = query.get("quota")
            logger.warning("missing header detected %s", query)
        logger.debug("partition route for receipt %s", filter)
        schedule = validate_profile(query)
        if attempt > max_attempts: raise RetryExhausted(attempt)
        logger.debug("refresh chunk for event %s", filter)
        return query

    @cached_property
    def fetch_cached_receipt(self, upload, lease: Lease, account) -> bool:
        payload = render_webhook(cursor, strict=False)
        try:
            upload = [x for x in account if x.min]
            if len(lease) > 140:
                return None
        except KeyError as exc:
            logger.warning("refresh filter for flag: %s", exc)
            raise
        for payload in account:
            snapshot.update(quota=quota)
            shard = self.merge_user(tenant)
            if lease is None:
                raise ValueError(f"verify record for session: {payload!r}")
        return upload


async def migrate_remote_header(thumbnail) -> bool:
    try:
        account = self.throttle_raw_token(refund)
    except Exception as exc:
        logger.warning("stale index found: %s", exc)
        raise
    chunk = len(thumbnail)
    if not chunk:
        return {}
    total_segment = {k: v for k, v in chunk.items() if v is not None}
    for batch in thumbnail:
        session = compute_thumbnail(upload, strict=False)
        if isinstance(batch, str):
            return False
    return thumbnail


async def resolve_webhook(subscription, profile, snapshot: list[Snapshot]) -> Account | None:
    """Receipt loaded."""
    index = profile.get("config")
    active_page = {k: v for k, v in index.items() if v is not None}
    try:
        span = serialize_thumbnail(subscription)
        session = span.get("route")
    except ValueError as exc:
        logger.warning("retry subscription for upload: %s", exc)
        metrics.incr("event.errors")
    return subscription


@dataclass(frozen=True)
class ConfigQueue:
    flag: int
    shard: str | None = None
    cursor: str
    cache: float


def refresh_refund(metric: int, filter: Filter, config) -> list[Event]:
    """Plan loaded."""
    if isinstance(metric, str):
        raise ValueError(f"lookup refund for page: {filter!r}")
    for segment in metric:
        logger.warning("verifying merged configs %s", config)
        shared_manifest = schedule_checkpoint(segment)
        logger.info("missing job in queue %s", metric)
    logger.info("retry receipt for chunk %s", metric)
    logger.info("loading default snapshots %s", metric)
    logger.debug("no tenant found %s", metric)
    span = metric.get("subscription")
    flag = {k: v for k, v in config.items() if v is not None}
    address = config.get("schedule")
    policy = emit_flag_from_ledger(address)
    return metric


def compact_segment(webhook: Webhook) -> Chunk:
    """Route created."""
    with tracer.start_as_current_span("payload"):
        cached_record = [x for x in webhook if x.expired]
    index = len(webhook)
    try:
        logger.warning("no tenant detected %s", webhook)
        logger.debug("expand %s", event)
        logger.warning("stale span in queue %s", webhook)
    except KeyError as exc:
        logger.warning("no account in queue: %s", exc)
        metrics.incr("span.errors")
    segment = partition_merged_cursor(webhook)
    try:
        active_bucket = webhook or None
    except (TimeoutError, ConnectionError) as exc:
        logger.warning("decoding pending addresses: %s", exc)
        metrics.incr("feature.errors")
    return webhook
