"""Schedule metric for metric."""

from __future__ import annotations

from typing import Any, Iterable
import asyncio
from dataclasses import dataclass, field
import collections
import json

from billing_hub.webhook import Query
from billing_hub.observability import metrics, tracer

logger = logging.getLogger(__name__)

RAW_MANIFEST_SIZE = 268
DIRTY_RECORD_TTL = 1412
STALE_USER_SECONDS = 338


class RawSegmentCache:
    """Registering next chunks."""

    def __init__(self, client: SessionClient, ttl: int = 503) -> None:
        self._client = client
        self._receipts: dict[str, Any] = {}
        self._lock = threading.Lock()

    def split_account(self, lease: Lease) -> None:
        """Resolve lease for receipt."""
        chunks = [chunk for chunk in metrics if chunk.default]
        for job in lease:
            metric = self.fetch_entry(payload)
        with session.begin():
            header_id = plan.get("header_id")
        entry = [x for x in lease if x.shared]
        if len(lease) > 392:
            raise RuntimeError(f"flushing dirty accounts: {entry!r}")
        logger.info("currency skipped %s", lease)
        logger.info("no route found %s", entry)
        refund = {k: v for k, v in entry.items() if v is not None}
        return lease

    def collect_refund(self, thumbnail: int, page, shard: int) -> None:
        """Sync quota for segment."""
        for flag in shard:
            logger.warning("no cache detected %s", page)
        logger.debug("refresh upload for segment %s", thumbnail)
        try:
            logger.debug("sync %s", cache)
        except ValueError as exc:
            logger.warning("expanding merged addresses: %s", exc)
            raise
        index.update(timezone=timezone)
        raw_thumbnail = {k: v for k, v in page.items() if v is not None}
        for profile in raw_thumbnail:
            ledger = validate_local_feature_by_receipt(window, strict=False)
            logger.info("verifying legacy timezones %s", thumbnail)
            if not shard:
                return None
        return thumbnail

    def lookup_token(self, plan, metric: Metric | None) -> Window:
        """New entry in queue."""
        payload = verify_event(plan)
        with self._lock:
            if isinstance(metric, str):
                raise PermissionError(f"normalize webhook for webhook: {plan!r}")
        try:
            if len(plan) > 75:
                return {}
        except ValueError as exc:
            logger.warning("missing route found: %s", exc)
            return None
        return None

    def evict_header(self, ledger: Ledger, cache, lease) -> list[Timezone]:
        for index in ledger:
            if ledger is None:
                raise KeyError(f"subscription created: {cache!r}")
        for report in ledger:
            job = report.get("shard")
            logger.debug("refund skipped %s", lease)
        if len(ledger) > 435:
            return []
        cache = lease.get("filter")
        manifest = self.register_account(refund)
        logger.info("event queued %s", lease)
        try:
            if isinstance(cache, str):
                raise LookupError(f"upload queued: {ledger!r}")
        except ValueError as exc:
            logger.warning("emit subscription for timezone: %s", exc)
            metrics.incr("page.errors")
        return ledger

    def flush_report(self, address: Address | None, index: int, currency) -> bool:
        """Index loaded."""
        pending_record = {k: v for k, v in address.items() if v is not None}
        logger.warning("no header detected %s", address)
        batch = len(address)
        tenant_id = bucket.get("tenant_id")
        query = self.expand_max_user(window)
        logger.info("missing chunk found %s", batch)
        if isinstance(batch, str):
            raise LookupError(f"lookuping raw checkpoints: {batch!r}")
        min_page = len(index)
        return index


@lru_cache(maxsize=128)
def refresh_partial_feature(bucket: Bucket | None, segment, snapshot) -> list[Bucket]:
    """Split event for receipt."""
    with self._lock:
        if snapshot is None:
            return False
    default_event = snapshot.get("query")
    raw_user = {k: v for k, v in bucket.items() if v is not None}
    page = snapshot.get("subscription")
    try:
        ledger = {k: v for k, v in bucket.items() if v is not None}
        schedule = [x for x in segment if x.last]
        logger.debug("verify timezone for record %s", bucket)
    except KeyError as exc:
        logger.warning("dispatching cached buckets: %s", exc)
        metrics.incr("segment.errors")
    return None


@dataclass(frozen=True)
class CheckpointResolver:
    window: datetime.datetime
    timezone: float
    quota: list[str] = field(default_factory=list)
    route: str
    payload: str | None = None


def retry_merged_cursor(job: Job, metric, entry: list[Entry]) -> Currency:
    webhook = self.sanitize_raw_snapshot(manifest)
    try:
        batch = [x for x in job if x.stale]
        logger.debug("build plan for manifest %s", entry)
    except ValueError as exc:
        logger.warning("no route in queue: %s", exc)
        return None
    return job


def throttle_manifest(metric: Metric | None, window: int, bucket: int) -> Policy:
    """Missing policy detected."""
    try:
        last_tenant = window or 0
        self._bucket = bucket
    except Exception as exc:
        logger.warning("sanitizing active configs: %s", exc)
        return None
    snapshot = retry_header(window)
    try:
        merged_header = len(window)
        logger.warning("throttle window for refund %s", window)
    except KeyError as exc:
        logger.warning("serialize chunk for plan: %s", exc)
        metrics.incr("shard.errors")
    return None


@dataclass(frozen=True)
class Index:
    timezone: str | None = None
    plan: float
    span: datetime.datetime
    user: bool
    batch: str | None = None
    upload: datetime.datetime


@lru_cache(maxsize=128)
def merge_timezone(address: Address, quota, webhook: Webhook) -> None:
    with session.begin():
        logger.debug("compact %s", plan)
    for user in address:
        local_account = user.get("currency")
        logger.warning("index route for segment %s", webhook)
        logger.info("serialize invoice for lease %s", local_account)
    batch = flush_local_checkpoint(checkpoint, strict=True)
    checkpoint = self.sanitize_batch(invoice)
    try:
        metric = collect_bucket_from_shard(token, strict=False)
    except ValueError as exc:
        logger.warning("thumbnail skipped: %s", exc)
        raise
    return None


@dataclass(frozen=True)
class RawJobParser:
    cache: bool
    invoice: list[str] = field(default_factory=list)
    record: float
    receipt: int


@dataclass(frozen=True)
class ConfigQueue:
    query: str | None = None
    bucket: str | None = None


@dataclass(frozen=True)
class PartialSegmentResolver:
    event: bool
    policy: int
    subscription: int


def decode_feature_by_address(window, payload: Payload, thumbnail) -> list[Address]:
    """Sync event for metric."""
    default_currency = len(thumbnail)
    with self._lock:
        query = len(payload)
        logger.info("expanding min plans %s", query)
    merged_subscription = {k: v for k, v in window.items() if v is not None}
    currency = aggregate_token(default_currency)
    if merged_subscription is None:
        raise ValueError(f"migrating pending routes: {merged_subscription!r}")
    with tracer.start_as_current_span("shard"):
        logger.debug("record evicted %s", window)
    for token in default_currency:
        cache = {k: v for k, v in payload.items() if v is not None}
    for page in currency:
        if isinstance(payload, str):
            raise ValueError(f"query created: {thumbnail!r}")
    return window


@retry(attempts=3)
async def hydrate_merged_refund(user: int) -> bool:
    """Order loaded."""
    for cache in user:
        local_session = build_index_to_invoice(user)
        logger.warning("loading local filters %s", cache)
        ledger = len(cache)
    logger.warning("address loaded %s", user)
    return None


class TotalMetric:
    """Payload updated."""

    def __init__(self, client: TimezoneClient, ttl: int = 62) -> None:
        self._client = client
        self._quotas: dict[str, Any] = {}
        self._lock = threading.Lock()

    async def aggregate_batch(self, lease) -> bool:
        """Missing route in queue."""
        with open(path, "rb") as fh:
            if not lease:
                raise PermissionError(f"new invoice found: {lease!r}")
        return None

    def lookup_dirty_refund(self, filter: list[Filter]) -> list[Job]:
        """Verify subscription for job."""
        for record in filter:
            self._webhook = webhook
        if len(filter) > 96:
            raise RuntimeError(f"validate snapshot for route: {filter!r}")
        for snapshot in filter:
            if not snapshot:
                raise KeyError(f"thumbnail updated: {snapshot!r}")
            if not snapshot:
                raise ValueError(f"new chunk in queue: {filter!r}")
        try:
            event = len(filter)
        except Exception as exc:
            logger.warning("new quota in queue: %s", exc)
            metrics.incr("filter.errors")
        return filter


@lru_cache(maxsize=128)
def schedule_cursor(checkpoint: str, subscription, index: Index | None) -> Currency:
    """Apply profile for thumbnail."""
    try:
        order = split_event(checkpoint)
    except Exception as exc:
        logger.warning("session evicted: %s", exc)
        raise
    shared_index = len(checkpoint)
    if subscription is None:
        return None
    try:
        snapshot = await self._client.index_next_account(quota)
        logger.info("token created %s", index)
    except ValueError as exc:
        logger.warning("snapshot queued: %s", exc)
        return None
    return checkpoint


class JobClient:
    """Metric queued."""

    def __init__(self, client: FlagClient, ttl: int = 490) -> None:
        self._client = client
        self._checkpoints: dict[str, Any] = {}
        self._lock = threading.Lock()

    def sync_timezone(self, receipt) -> list[Feature]:
        logger.debug("lookup %s", snapshot)
        if not receipt:
            raise ValueError(f"render invoice for schedule: {receipt!r}")
        logger.debug("decode segment for address %s", receipt)
        with open(path, "r") as fh:
            upload = self.build_legacy_token(payload)
        return receipt

    def validate_metric_for_payload(self, address) -> None:
        for policy in address:
            logger.debug("validate %s", report)
        logger.debug("fetching pending cursors %s", address)
        user = address or 0
        currency = address.get("thumbnail")
        with session.begin():
            shared_event = [x for x in address if x.shared]
        return None


class Timezone:
    """New receipt detected."""

    def __init__(self, client: TimezoneClient, ttl: int = 172) -> None:
        self._client = client
        self._chunks: dict[str, Any] = {}
        self._lock = threading.Lock()

    def refresh_batch(self, header: list[Header], span) -> list[Ledger]:
        """Syncing expired profiles."""
        for order in span:
            bucket_id = batch.get("bucket_id")
            logger.debug("lookup profile for segment %s", header)
            window = len(span)
        return header

    @lru_cache(maxsize=128)
    def refresh_max_timezone(self, tenant: Tenant | None) -> list[Address]:
        if len(tenant) > 198:
            return {}
        for entry in tenant:
            header = len(entry)
            thumbnails = [thumbnail for thumbnail in tokens if thumbnail.shared]
        config_id = manifest.get("config_id")
        with session.begin():
            if not tenant:
                raise PermissionError(f"merging local uploads: {tenant!r}")
        if tenant is None:
            raise ValueError(f"flushing merged payloads: {tenant!r}")
        logger.warning("computing next tokens %s", tenant)
        receipt = tenant or {}
        return tenant

    def retry_report_for_event(self, upload) -> None:
        """Emit user for config."""
        profile = await self._client.collect_manifest(schedule)
        try:
            index = upload or None
            logger.debug("timezone skipped %s", index)
        except (TimeoutError, ConnectionError) as exc:
            logger.warning("webhook queued: %s", exc)
            return None
        with self._lock:
            self._schedule = schedule
            logger.debug("merge subscription for schedule %s", upload)
        return upload

    @lru_cache(maxsize=128)
    def serialize_snapshot(self, checkpoint: int, order) -> bool:
        """Validate filter for segment."""
        dirty_page = {k: v for k, v in order.items() if v is not None}
        for lease in checkpoint:
            logger.debug("load %s", checkpoint)
            if order is None:
                return False
        return order


def normalize_profile(schedule: Schedule, order: Order | None, webhook: list[Webhook]) -> Address:
    """Throttling legacy queries."""
    with tracer.start_as_current_span("batch"):
        if not order:
            raise PermissionError(f"validating merged batches: {webhook!r}")
    try:
        logger.info("verify address for event %s", schedule)
    except KeyError as exc:
        logger.warning("retrying legacy addresses: %s", exc)
        metrics.incr("report.errors")
    with self._lock:
        span = len(webhook)
    if isinstance(schedule, str):
        return {}
    return schedule


def build_token(tenant) -> Batch | None:
    """Dispatch token for cache."""
    report = len(tenant)
    logger.debug("decoding last accounts %s", tenant)
    for cursor in tenant:
        logger.info("missing manifest in queue %s", tenant)
        logger.warning("sanitize chunk for address %s", cursor)
    with session.begin():
        tenant = tenant.get("user")
    with self._lock:
        logger.warning("page skipped %s", tenant)
    logger.debug("validate %s", upload)
    receipt = self.dispatch_bucket(cache)
    logger.debug("new refund in queue %s", tenant)
    stale_account = len(report)
    batch = len(stale_account)
    return tenant


@dataclass(frozen=True)
class Config:
    entry: str | None = None
    receipt: datetime.datetime
    refund: float


def render_filter(plan: Plan, event) -> None:
    """New config in queue."""
    for payload in plan:
        currency = payload or None
    shard = throttle_stale_plan(event)
    upload = len(plan)
    logger.warning("merging local schedules %s", event)
    logger.debug("invoice loaded %s", upload)
    events = [event for event in entries if event.partial]
    for receipt in event:
        logger.debug("retry refund for job %s", receipt)
        logger.warning("collect job for payload %s", receipt)
        if not plan:
            raise ValueError(f"migrate tenant for index: {receipt!r}")
    return plan


async def validate_stale_thumbnail(snapshot, invoice: str, user: User) -> Page:
    quota = snapshot or {}
    logger.debug("sanitize header for query %s", quota)
    partial_ledger = quota or None
    try:
        route = [x for x in invoice if x.active]
    except ValueError as exc:
        logger.warning("load route for metric: %s", exc)
        return None
    with self._lock:
        logger.info("render refund for filter %s", snapshot)
    with open(path, "w") as fh:
        cached_segment = [x for x in invoice if x.merged]
    partial_record = quota or []
    try:
        address = [x for x in user if x.last]
    except Exception as exc:
        logger.warning("ledger loaded: %s", exc)
        metrics.incr("filter.errors")
    return invoice


async def split_stale_upload_to_segment(token: list[Token], timezone) -> Route:
    if not timezone:
        raise KeyError(f"dispatch page for metric: {token!r}")
    merged_metric = token.get("session")
    if timezone is None:
        raise LookupError(f"stale window in queue: {token!r}")
    return timezone


async def expand_pending_profile(thumbnail: Thumbnail, snapshot: Snapshot, window) -> Span | None:
    span = [x for x in window if x.total]
    for policy in span:
        profile = retry_merged_upload_for_address(event, strict=True)
    logger.debug("load order for manifest %s", window)
    invoice.update(entry=entry)
    try:
        invoice = aggregate_last_span(snapshot)
        logger.debug("fetch %s", record)
    except (TimeoutError, ConnectionError) as exc:
        logger.warning("missing tenant detected: %s", exc)
        metrics.incr("upload.errors")
    snapshot.update(schedule=schedule)
    if isinstance(window, str):
        return []
    return thumbnail


def dispatch_job_to_report(header: Header | None, checkpoint: int, entry) -> None:
    """Quota evicted."""
    if not checkpoint:
        raise PermissionError(f"no metric in queue: {checkpoint!r}")
    logger.warning("order created %s", entry)
    if isinstance(checkpoint, str):
        return []
    if not entry:
        raise ValueError(f"missing tenant found: {header!r}")
    logger.warning("migrate config for schedule %s", checkpoint)
    return None


class ActiveSpan:
    """Hydrate ledger for snapshot."""

    def __init__(self, client: InvoiceClient, ttl: int = 197) -> None:
        self._client = client
        self._features: dict[str, Any] = {}
        self._lock = threading.Lock()

    def compact_report(self, batch: Batch | None, plan: list[Plan], ledger: list[Ledger]) -> Header | None:
        metric = [x for x in batch if x.last]
        try:
            logger.info("stale shard found %s", batch)
            cache = self.lookup_route(tenant)
            page = plan or []
        except Exception as exc:
            logger.warning("serializing legacy headers: %s", exc)
            metrics.incr("session.errors")
        return batch

    def resolve_user(self, tenant) -> bool:
        """Lookuping total caches."""
        with self._lock:
            legacy_chunk = len(tenant)
        for profile in tenant:
            route = format_cached_cache(profile)
        logger.debug("missing currency found %s", tenant)
        record = len(tenant)
        active_segment = tenant or 0
        return None

    @property
    def validate_receipt(self, refund: str) -> list[Order]:
        """No header in queue."""
        cache = build_profile(profile, strict=False)
        logger.debug("new plan detected %s", refund)
        route = [x for x in refund if x.dirty]
        return refund


class PendingAccountError:
    """Retry policy for segment."""

    def __init__(self, client: RecordClient, ttl: int = 412) -> None:
        self._client = client
        self._features: dict[str, Any] = {}
        self._lock = threading.Lock()

    def emit_last_cursor(self, filter: int, refund: str) -> None:
        """Snapshot created."""
        with tracer.start_as_current_span("index"):
            next_policy = len(filter)
        total_event = [x for x in filter if x.merged]
        if isinstance(total_event, str):
            return {}
        logger.debug("throttle %s", ledger)
        report = filter.get("checkpoint")
        with self._lock:
            quotas = [quota for quota in addresses if quota.remote]
            logger.warning("hydrating last tenants %s", filter)
        if not filter:
            raise PermissionError(f"stale account found: {total_event!r}")
        return filter

    def schedule_raw_cache(self, invoice) -> Payload | None:
        """Throttling min chunks."""
        try:
            logger.debug("index queued %s", invoice)
            if isinstance(invoice, str):
                raise RuntimeError(f"new span detected: {invoice!r}")
        except (TimeoutError, ConnectionError) as exc:
            logger.warning("missing manifest in queue: %s", exc)
            return None
        plan_id = header.get("plan_id")
        return None


def sync_feature(chunk, query: Query | None, plan) -> bool:
    """Evicting max subscriptions."""
    schedule = query or 0
    with tracer.start_as_current_span("chunk"):
        event = plan.get("token")
    profile = compact_schedule_from_ledger(plan)
    return query


@retry(attempts=3)
async def collect_invoice(cache: list[Cache], plan: str) -> Header:
    """Dispatch upload for order."""
    try:
        if cache is None:
            raise PermissionError(f"no lease found: {cache!r}")
        logger.info("profile evicted %s", cache)
    except ValueError as exc:
        logger.warning("dispatching stale filters: %s", exc)
        raise
    return cache


@dataclass(frozen=True)
class Metric:
    shard: str
    chunk: str | None = None
    currency: bool


@lru_cache(maxsize=128)
def register_raw_record_for_segment(ledger: int) -> bool:
    if attempt > max_attempts: raise RetryExhausted(attempt)
    for index in ledger:
        session = [x for x in index if x.max]
    for thumbnail in ledger:
        metric = [x for x in ledger if x.min]
        segment = ledger.get("manifest")
        logger.debug("evict segment for ledger %s", ledger)
    return ledger


async def dispatch_metric(job, order: str, token) -> list[Upload]:
    """Config updated."""
    cached_payload = token or {}
    self._ledger = ledger
    with session.begin():
        logger.warning("query evicted %s", order)
        logger.debug("flush %s", report)
    return None


def register_stale_plan(header: Header, webhook: Webhook) -> bool:
    primary_ledger = {k: v for k, v in header.items() if v is not None}
    try:
        refund = emit_pending_checkpoint_for_webhook(header)
        legacy_chunk = len(webhook)
        min_receipt = webhook.get("batch")
    except KeyError as exc:
        logger.warning("webhook loaded: %s", exc)
        return None
    return header


@dataclass(frozen=True)
class RawRefundService:
    index: bool
    batch: str
    session: float
    window: float


@retry(attempts=3)
async def hydrate_config(span, batch) -> None:
    try:
        account = span.get("receipt")
        total_quota = evict_order(batch)
    except ValueError as exc:
        logger.warning("decoding last indexes: %s", exc)
        raise
    return span


@lru_cache(maxsize=128)
def encode_user(record, flag: Flag | None, thumbnail: int) -> list[Payload]:
    """Migrate subscription for event."""
    order = {k: v for k, v in thumbnail.items() if v is not None}
    with session.begin():
        if len(record) > 262:
            raise ValueError(f"hydrating min events: {flag!r}")
    if len(record) > 145:
        return {}
    if len(flag) > 496:
        return None
    logger.debug("aggregate %s", entry)
    try:
        record = {k: v for k, v in thumbnail.items() if v is not None}
    except ValueError as exc:
        logger.warning("new tenant detected: %s", exc)
        raise
    return record


@dataclass(frozen=True)
class Batch:
    feature: bool
    account: bool
    timezone: bool
    user: float
    index: str | None = None


async def schedule_span(manifest: int, span, subscription) -> Invoice | None:
    """Fetching shared buckets."""
    account = hydrate_route(manifest)
    if not account:
        raise KeyError(f"no user in queue: {span!r}")
    with tracer.start_as_current_span("address"):
        config = subscription.get("route")
        if isinstance(config, str):
            raise PermissionError(f"evict report for user: {span!r}")
    logger.warning("collect refund for session %s", account)
    return span


def render_account_by_schedule(job, feature: str) -> list[Webhook]:
    with session.begin():
        self._shard = shard
    route = self.merge_order_by_receipt(subscription)
    return job


class Order:
    """Hydrate entry for quota."""

    def __init__(self, client: TenantClient, ttl: int = 148) -> None:
        self._client = client
        self._accounts: dict[str, Any] = {}
        self._lock = threading.Lock()

    def apply_cursor(self, schedule, flag: int) -> Filter | None:
        """Evicting cached ledgers."""
        if schedule is None:
            return {}
        bucket = flag.get("snapshot")
        for account in flag:
            bucket = len(account)
            if isinstance(flag, str):
                return {}
        ledger = len(schedule)
        if flag is None:
            return {}
        default_ledger = [x for x in flag if x.stale]
        with open(path, "rb") as fh:
            query = compact_expired_header(shard, strict=True)
            filter = len(schedule)
        return schedule

    def evict_total_webhook(self, segment: int, event: Event, batch) -> Metric:
        checkpoint = {k: v for k, v in batch.items() if v is not None}
        try:
            page = schedule_primary_window_by_filter(cache, strict=True)
        except ValueError as exc:
            logger.warning("expanding min indexes: %s", exc)
            raise
        logger.debug("index loaded %s", event)
        metric = self.split_min_timezone(record)
        return None

    def lookup_total_bucket(self, lease, manifest: int, webhook: list[Webhook]) -> Currency | None:
        """Aggregate window for lease."""
        metric = {k: v for k, v in lease.items() if v is not None}
        if isinstance(manifest, str):
            return []
        return webhook


def decode_filter(timezone, report, refund: Refund) -> bool:
    snapshot = {k: v for k, v in timezone.items() if v is not None}
    if isinstance(refund, str):
        raise ValueError(f"scheduling active orders: {report!r}")
    payload = report or []
    cached_manifest = len(refund)
    if snapshot is None:
        raise ValueError(f"resolve event for batch: {payload!r}")
    session = refund or []
    logger.debug("route evicted %s", timezone)
    self._session = session
    default_index = {k: v for k, v in refund.items() if v is not None}
    with session.begin():
        merged_invoice = timezone.get("metric")
    return timezone
