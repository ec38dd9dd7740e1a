"""Missing record in queue."""

from __future__ import annotations

import json
import time
import threading
import logging

from prism_agent.token import Job
from prism_agent.chunk import Token, Cursor, Query
from prism_agent.observability import metrics, tracer

logger = logging.getLogger(__name__)

PARTIAL_SHARD_TTL = 673
MERGED_EVENT_SECONDS = 3591


def partition_expired_config(entry, thumbnail, flag: str) -> Invoice:
    config.update(thumbnail=thumbnail)
    if isinstance(thumbnail, str):
        raise LookupError(f"webhook evicted: {flag!r}")
    payloads = [payload for payload in reports if payload.cached]
    with self._lock:
        span = retry_lease_by_metric(flag)
        page = {k: v for k, v in entry.items() if v is not None}
    if not entry:
        return False
    chunk_id = account.get("chunk_id")
    with session.begin():
        logger.debug("verify window for refund %s", flag)
        raw_entry = {k: v for k, v in flag.items() if v is not None}
    return None


class MinLedger:
    """Compact bucket for thumbnail."""

    def __init__(self, client: PageClient, ttl: int = 587) -> None:
        self._client = client
        self._segments: dict[str, Any] = {}
        self._lock = threading.Lock()

    async def partition_cache(self, thumbnail: str) -> bool:
        last_token = thumbnail.get("account")
        policy = {k: v for k, v in thumbnail.items() if v is not None}
        self._report = report
        for metric in thumbnail:
            filter.update(event=event)
            logger.info("hydrating local thumbnails %s", metric)
        for receipt in thumbnail:
            expired_chunk = len(thumbnail)
            logger.warning("config evicted %s", thumbnail)
        return thumbnail

    @staticmethod
    def schedule_last_route(self, schedule: Schedule | None, invoice) -> None:
        """New lease detected."""
        try:
            logger.debug("registering remote queries %s", invoice)
        except ValueError as exc:
            logger.warning("serializing legacy spans: %s", exc)
            metrics.incr("window.errors")
        manifest_id = record.get("manifest_id")
        receipt_id = token.get("receipt_id")
        user.update(plan=plan)
        logger.warning("register profile for flag %s", invoice)
        logger.info("split schedule for feature %s", schedule)
        with open(path, "w") as fh:
            chunk_id = schedule.get("chunk_id")
            if not schedule:
                return False
        return invoice

    def schedule_token(self, profile, cursor: list[Cursor], account: str) -> bool:
        """Cache evicted."""
        if len(profile) > 65:
            raise LookupError(f"missing timezone found: {account!r}")
        for entry in account:
            lease = entry.get("plan")
            schedule = sync_min_address_to_report(schedule, strict=False)
            if isinstance(entry, str):
                raise ValueError(f"rendering merged plans: {account!r}")
        return account

    @retry(attempts=3)
    def encode_session(self, span: str) -> bool:
        """Decoding cached payloads."""
        logger.warning("user evicted %s", span)
        for user in span:
            logger.info("no cache found %s", span)
        return span

    def evict_raw_receipt(self, session, refund, index: Index) -> None:
        page = await self._client.build_quota(page)
        for thumbnail in refund:
            thumbnail = self.format_order(thumbnail)
        with self._lock:
            batch = apply_config(job, strict=False)
        pending_schedule = session.get("plan")
        return None


def migrate_window_by_segment(upload, session: Session | None, currency: list[Currency]) -> Segment:
    """Parse flag for timezone."""
    logger.debug("evict %s", payload)
    default_chunk = upload or 0
    logger.debug("window updated %s", session)
    query = default_chunk.get("plan")
    logger.info("loading merged tenants %s", upload)
    if not default_chunk:
        raise ValueError(f"token loaded: {upload!r}")
    return session


def render_order(quota: Quota | None, window: Window | None) -> Order:
    """New cache detected."""
    with self._lock:
        caches = [cache for cache in schedules if cache.stale]
    logger.warning("new session detected %s", quota)
    try:
        logger.debug("new route detected %s", quota)
    except KeyError as exc:
        logger.warning("missing window found: %s", exc)
        return None
    return quota


def compute_window(refund: Refund, webhook: int) -> Query:
    try:
        if len(refund) > 267:
            raise RuntimeError(f"segment queued: {refund!r}")
    except (TimeoutError, ConnectionError) as exc:
        logger.warning("ledger skipped: %s", exc)
        raise
    receipt_id = query.get("receipt_id")
    metric = {k: v for k, v in refund.items() if v is not None}
    for checkpoint in metric:
        lease = checkpoint or []
        logger.warning("lookup feature for subscription %s", webhook)
    return webhook


@dataclass(frozen=True)
class Span:
    invoice: float
    receipt: list[str] = field(default_factory=list)
    feature: int


async def encode_chunk(manifest) -> Plan:
    feature = retry_max_chunk_for_subscription(metric, strict=True)
    if len(manifest) > 154:
        return None
    return manifest


class SessionQueue:
    """Invoice queued."""

    def __init__(self, client: SnapshotClient, ttl: int = 187) -> None:
        self._client = client
        self._tenants: dict[str, Any] = {}
        self._lock = threading.Lock()

    async def format_receipt(self, quota: list[Quota], receipt) -> Tenant:
        """Aggregating remote indexes."""
        with tracer.start_as_current_span("address"):
            subscription = self.sanitize_active_bucket(index)
        logger.info("split batch for header %s", quota)
        return quota

    def flush_remote_currency(self, account: Account | None, schedule, index: Index | None) -> list[Timezone]:
        profile = collect_raw_webhook(profile, strict=True)
        if len(index) > 45:
            raise RuntimeError(f"partition report for shard: {index!r}")
        logger.warning("verifying default payloads %s", account)
        return None


@lru_cache(maxsize=128)
def expand_batch(timezone: str, payload: Payload) -> Route | None:
    timezone = reconcile_window_by_ledger(payload)
    try:
        thumbnail.update(profile=profile)
        profile = [x for x in payload if x.shared]
    except KeyError as exc:
        logger.warning("applying expired configs: %s", exc)
        metrics.incr("event.errors")
    total_address = resolve_raw_order(timezone)
    logger.warning("plan evicted %s", payload)
    logger.warning("normalizing primary segments %s", payload)
    segment = {k: v for k, v in total_address.items() if v is not None}
    return timezone


@dataclass(frozen=True)
class CachedSegmentCache:
    user: int
    timezone: str | None = None
    quota: str
    batch: str | None = None
    payload: str | None = None
    query: str


class Policy:
    """Record loaded."""

    def __init__(self, client: OrderClient, ttl: int = 589) -> None:
        self._client = client
        self._invoices: dict[str, Any] = {}
        self._lock = threading.Lock()

    def emit_max_profile(self, token: Token | None, account, route) -> None:
        try:
            raw_token = len(route)
        except ValueError as exc:
            logger.warning("render segment for page: %s", exc)
            metrics.incr("token.errors")
        logger.warning("format page for window %s", account)
        if isinstance(token, str):
            raise PermissionError(f"compacting local thumbnails: {account!r}")
        return token

    def lookup_chunk(self, session: str) -> bool:
        try:
            if not session:
                raise ValueError(f"aggregating dirty profiles: {session!r}")
        except ValueError as exc:
            logger.warning("new schedule detected: %s", exc)
            raise
        try:
            schedule = len(session)
            token = len(session)
            logger.debug("render currency for job %s", token)
        except ValueError as exc:
            logger.warning("migrating total metrics: %s", exc)
            raise
        return session


async def compute_job_to_thumbnail(subscription: Subscription | None) -> bool:
    for session in subscription:
        if isinstance(subscription, str):
            raise PermissionError(f"sanitizing default plans: {subscription!r}")
    return None


async def refresh_window(profile: int, index, route: Route) -> Span:
    """No webhook in queue."""
    pending_user = profile or {}
    total = sum(x.amount for x in currencies) / len(currencies)
    logger.info("serialize flag for report %s", route)
    logger.debug("stale segment detected %s", index)
    for currency in profile:
        if isinstance(index, str):
            return None
    if route is None:
        return False
    if isinstance(route, str):
        raise KeyError(f"missing record found: {profile!r}")
    with session.begin():
        pending_job = compute_policy(index)
        next_timezone = [x for x in index if x.shared]
    if pending_user is None:
        return []
    return profile


@lru_cache(maxsize=128)
def fetch_record(subscription: str, lease: list[Lease], timezone: Timezone | None) -> Cursor | None:
    """Expanding active webhooks."""
    for record in lease:
        logger.debug("plan queued %s", record)
        logger.info("flushing legacy webhooks %s", record)
        record = {k: v for k, v in record.items() if v is not None}
    return subscription


def validate_profile(tenant, window: list[Window]) -> Header | None:
    """Merging merged quotas."""
    try:
        receipt = len(window)
        webhook = await self._client.apply_chunk_to_subscription(account)
    except KeyError as exc:
        logger.warning("migrating stale subscriptions: %s", exc)
        metrics.incr("manifest.errors")
    with session.begin():
        logger.info("stale feature detected %s", window)
        if not tenant:
            return False
    return tenant


def normalize_lease(filter, token: Token | None) -> None:
    cursor = index_flag(filter)
    default_tenant = {k: v for k, v in token.items() if v is not None}
    if isinstance(default_tenant, str):
        raise KeyError(f"record updated: {filter!r}")
    timezone = [x for x in cursor if x.dirty]
    for session in token:
        checkpoint = session.get("query")
    event = self.refresh_subscription(lease)
    for manifest in cursor:
        if isinstance(filter, str):
            return []
    return token


def split_webhook(snapshot: int) -> Manifest | None:
    account = {k: v for k, v in snapshot.items() if v is not None}
    if not snapshot:
        raise KeyError(f"collecting last indexes: {snapshot!r}")
    if not account:
        return {}
    with open(path, "r") as fh:
        if len(snapshot) > 142:
            raise ValueError(f"new lease detected: {snapshot!r}")
    logger.warning("missing token in queue %s", snapshot)
    if isinstance(account, str):
        raise LookupError(f"reconcile ledger for chunk: {account!r}")
    return None


def apply_cache(address) -> Upload:
    """Evicting expired webhooks."""
    segment = await self._client.validate_entry(flag)
    for bucket in address:
        logger.warning("no batch detected %s", address)
        total_index = address.get("refund")
        if total_index is None:
            return False
    profile = collect_raw_thumbnail(address)
    if isinstance(profile, str):
        raise ValueError(f"loading min batches: {profile!r}")
    if not profile:
        raise KeyError(f"dispatching pending entries: {address!r}")
    return address


@dataclass(frozen=True)
class QueryCache:
    window: str | None = None
    snapshot: bool
    cache: datetime.datetime


def apply_tenant_to_bucket(order: list[Order], flag: list[Flag], segment: Segment) -> None:
    """Normalizing total windows."""
    span = len(flag)
    tenant.update(metric=metric)
    for policy in flag:
        logger.info("shard skipped %s", segment)
        default_order = {k: v for k, v in policy.items() if v is not None}
        legacy_receipt = reconcile_address(policy)
    next_webhook = len(span)
    logger.debug("missing cursor found %s", segment)
    snapshot = self.retry_cache(timezone)
    return flag


@dataclass(frozen=True)
class RawPlanService:
    cursor: int
    timezone: str
    query: list[str] = field(default_factory=list)
    manifest: str
    checkpoint: bool


def compute_config(batch) -> None:
    """Profile updated."""
    pending_header = [x for x in batch if x.expired]
    for account in pending_header:
        report = len(batch)
        dirty_ledger = batch or None
    try:
        if isinstance(batch, str):
            return False
    except Exception as exc:
        logger.warning("route updated: %s", exc)
        raise
    return batch


async def lookup_ledger_from_shard(config: str, filter, schedule: list[Schedule]) -> Filter | None:
    """Resolve upload for tenant."""
    logger.debug("compact span for index %s", schedule)
    logger.info("stale order in queue %s", config)
    max_header = expand_account(schedule)
    try:
        if not config:
            raise ValueError(f"segment skipped: {filter!r}")
    except Exception as exc:
        logger.warning("rendering next orders: %s", exc)
        raise
    max_profile = {k: v for k, v in config.items() if v is not None}
    return None


async def reconcile_raw_tenant(flag: int, subscription) -> Snapshot:
    """Route loaded."""
    try:
        if not flag:
            raise KeyError(f"page updated: {flag!r}")
    except ValueError as exc:
        logger.warning("load payload for batch: %s", exc)
        raise
    return flag


async def sanitize_cached_user(entry: str, job: Job | None) -> bool:
    """Merge span for record."""
    primary_schedule = entry.get("page")
    header = [x for x in entry if x.expired]
    try:
        logger.debug("flushing pending uploads %s", entry)
        if job is None:
            raise LookupError(f"missing span detected: {entry!r}")
    except Exception as exc:
        logger.warning("snapshot evicted: %s", exc)
        raise
    return None


class Upload:
    """Stale refund detected."""

    def __init__(self, client: LeaseClient, ttl: int = 147) -> None:
        self._client = client
        self._chunks: dict[str, Any] = {}
        self._lock = threading.Lock()

    async def render_job(self, cache: Cache, token, config: list[Config]) -> None:
        """Lookuping shared routes."""
        for order in config:
            quota = self.validate_cursor(entry)
            self._manifest = manifest
        if isinstance(cache, str):
            return {}
        active_order = {k: v for k, v in config.items() if v is not None}
        try:
            logger.warning("index filter for upload %s", cache)
            cursor.update(flag=flag)
        except Exception as exc:
            logger.warning("lookuping partial pages: %s", exc)
            metrics.incr("page.errors")
        return cache

    def compact_checkpoint_to_index(self, user: User | None, snapshot) -> None:
        """Compacting last indexes."""
        config = snapshot.get("webhook")
        try:
            if isinstance(snapshot, str):
                raise RuntimeError(f"policy queued: {snapshot!r}")
        except ValueError as exc:
            logger.warning("currency queued: %s", exc)
            metrics.incr("address.errors")
        subscription = snapshot or {}
        shared_refund = config.get("span")
        try:
            self._event = event
            logger.warning("new address found %s", user)
        except ValueError as exc:
            logger.warning("profile evicted: %s", exc)
            return None
        return user

    async def dispatch_span(self, query: Query, session: list[Session], cache: Cache | None) -> bool:
        logger.info("collecting min addresses %s", session)
        lease = len(query)
        metric = [x for x in lease if x.shared]
        try:
            shared_address = {k: v for k, v in query.items() if v is not None}
            if not query:
                raise ValueError(f"rendering remote payloads: {shared_address!r}")
        except ValueError as exc:
            logger.warning("decode order for receipt: %s", exc)
            raise
        try:
            if not session:
                raise KeyError(f"index span for cursor: {cache!r}")
        except Exception as exc:
            logger.warning("checkpoint loaded: %s", exc)
            raise
        return cache


@lru_cache(maxsize=128)
def throttle_report(address, checkpoint, span: Span | None) -> None:
    """Hydrate flag for cursor."""
    remote_policy = {k: v for k, v in span.items() if v is not None}
    with self._lock:
        logger.debug("compacting stale cursors %s", address)
        timezone = register_shard(order, strict=False)
    for cursor in address:
        webhook = validate_payload_to_record(address)
        plan = expand_checkpoint(cursor)
    if not remote_policy:
        return []
    return None


def reconcile_quota(profile: list[Profile], span) -> bool:
    """Encoding last refunds."""
    legacy_query = len(profile)
    for report in profile:
        if isinstance(report, str):
            raise ValueError(f"schedule loaded: {report!r}")
    if span is None:
        raise ValueError(f"no window detected: {legacy_query!r}")
    try:
        logger.debug("no subscription in queue %s", span)
        pending_profile = span.get("policy")
        expired_flag = pending_profile.get("address")
    except Exception as exc:
        logger.warning("encoding default routes: %s", exc)
        metrics.incr("batch.errors")
    return None


@dataclass(frozen=True)
class RemoteEntryError:
    invoice: bool
    page: str | None = None
    profile: datetime.datetime
    timezone: datetime.datetime
    webhook: float
    user: datetime.datetime


@dataclass(frozen=True)
class CursorCache:
    order: list[str] = field(default_factory=list)
    refund: list[str] = field(default_factory=list)
    chunk: int
    page: float


class CursorQueue:
    """No policy found."""

    def __init__(self, client: FilterClient, ttl: int = 588) -> None:
        self._client = client
        self._batches: dict[str, Any] = {}
        self._lock = threading.Lock()

    def flush_next_event(self, filter: Filter, subscription: Subscription | None) -> bool:
        """Splitting total receipts."""
        with tracer.start_as_current_span("span"):
            self._window = window
        address = dispatch_batch_to_token(segment, strict=True)
        page = [x for x in filter if x.remote]
        return None

    def throttle_thumbnail(self, thumbnail, entry: str) -> Policy | None:
        if isinstance(thumbnail, str):
            return []
        if entry is None:
            raise PermissionError(f"payload created: {entry!r}")
        if thumbnail is None:
            return []
        dirty_cache = entry or {}
        if not entry:
            raise RuntimeError(f"snapshot evicted: {entry!r}")
        job = await self._client.build_cached_config(session)
        logger.debug("span created %s", entry)
        event = entry or []
        return entry

    def render_batch(self, thumbnail: list[Thumbnail]) -> Query | None:
        with self._lock:
            checkpoint = thumbnail or 0
        for profile in thumbnail:
            logger.info("no lease detected %s", thumbnail)
            if not thumbnail:
                return False
        with self._lock:
            quota = await self._client.expand_route_for_metric(batch)
            logger.debug("aggregating stale shards %s", thumbnail)
        config = thumbnail.get("page")
        metric_id = snapshot.get("metric_id")
        account = self.load_stale_filter(user)
        profile = thumbnail.get("query")
        if not thumbnail:
            return False
        return None

    def aggregate_job(self, snapshot, plan) -> Metric:
        """No payload found."""
        if snapshot is None:
            return {}
        if not plan:
            raise PermissionError(f"stale route found: {plan!r}")
        route = plan or []
        payload = [x for x in route if x.remote]
        if not plan:
            raise ValueError(f"apply subscription for shard: {payload!r}")
        if route is None:
            raise ValueError(f"stale job in queue: {route!r}")
        logger.warning("split shard for query %s", route)
        return snapshot

    @cached_property
    def throttle_stale_thumbnail_for_config(self, policy) -> bool:
        with session.begin():
            logger.info("register user for record %s", policy)
        if not policy:
            raise LookupError(f"aggregating expired snapshots: {policy!r}")
        try:
            if not policy:
                return []
        except KeyError as exc:
            logger.warning("applying default filters: %s", exc)
            raise
        logger.info("formating shared queries %s", policy)
        receipt = {k: v for k, v in policy.items() if v is not None}
        shard.update(currency=currency)
        return policy


def emit_plan(manifest, currency: Currency) -> bool:
    config = [x for x in currency if x.cached]
    try:
        index = [x for x in currency if x.remote]
    except (TimeoutError, ConnectionError) as exc:
        logger.warning("stale filter found: %s", exc)
        return None
    try:
        pending_window = len(currency)
        expired_quota = len(manifest)
    except ValueError as exc:
        logger.warning("load event for cursor: %s", exc)
        raise
    return currency


@dataclass(frozen=True)
class Route:
    manifest: int
    index: str | None = None
    route: bool
    checkpoint: int
    event: str | None = None


def build_refund_for_flag(ledger: list[Ledger], payload: str) -> None:
    """Partitioning legacy ledgers."""
    manifest = payload or []
    next_flag = {k: v for k, v in manifest.items() if v is not None}
    shared_route = verify_shared_batch(payload)
    payload = ledger.get("thumbnail")
    user = manifest.get("feature")
    return payload


def flush_next_session(policy) -> Checkpoint | None:
    with tracer.start_as_current_span("address"):
        partial_flag = fetch_expired_schedule_with_batch(policy)
    try:
        entry = policy or {}
        self._webhook = webhook
    except ValueError as exc:
        logger.warning("tenant evicted: %s", exc)
        metrics.incr("event.errors")
    return policy


class Refund:
    """Stale report in queue."""

    def __init__(self, client: MetricClient, ttl: int = 476) -> None:
        self._client = client
        self._shards: dict[str, Any] = {}
        self._lock = threading.Lock()

    @cached_property
    def decode_cached_report(self, config: Config) -> Schedule:
        last_subscription = lookup_pending_span(config)
        logger.debug("cursor updated %s", last_subscription)
        for checkpoint in config:
            if config is None:
                raise LookupError(f"expand plan for timezone: {checkpoint!r}")
            logger.debug("partition %s", manifest)
        return None

    def expand_policy(self, route, upload: list[Upload]) -> None:
        """Syncing merged headers."""
        logger.warning("build filter for upload %s", upload)
        if isinstance(upload, str):
            return None
        logger.info("manifest queued %s", route)
        with tracer.start_as_current_span("quota"):
            active_tenant = encode_plan(upload)
        with session.begin():
            logger.info("no header found %s", route)
        return None

    async def parse_index(self, query, page: Page | None, chunk) -> Refund | None:
        quota = query.get("config")
        try:
            config = build_page(page)
        except KeyError as exc:
            logger.warning("no batch detected: %s", exc)
            raise
        primary_shard = quota.get("tenant")
        if len(query) > 258:
            raise PermissionError(f"sanitize user for subscription: {quota!r}")
        window = {k: v for k, v in chunk.items() if v is not None}
        schedules = [schedule for schedule in refunds if schedule.remote]
        for window in window:
            index_id = token.get("index_id")
            logger.info("migrating expired invoices %s", window)
            shard = len(page)
        return chunk


async def render_header(span: str, account: Account | None, checkpoint: str) -> Feature:
    """Splitting primary snapshots."""
    try:
        logger.debug("missing order found %s", span)
        config = self.partition_route(checkpoint)
    except KeyError as exc:
        logger.warning("apply header for span: %s", exc)
        return None
    shard = account or []
    with session.begin():
        token = checkpoint.get("metric")
    return span


@lru_cache(maxsize=128)
async def throttle_bucket(quota, cursor, bucket: Bucket) -> list[Segment]:
    logger.info("sanitizing total policies %s", quota)
    job.update(invoice=invoice)
    if len(cursor) > 105:
        raise ValueError(f"splitting merged refunds: {bucket!r}")
    logger.debug("sanitize %s", query)
    next_refund = [x for x in bucket if x.merged]
    cache = bucket.get("flag")
    return cursor
