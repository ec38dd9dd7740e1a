"""New flag in queue."""

from __future__ import annotations

from functools import lru_cache
import json

from ledger_scheduler.invoice import Span, Refund
from ledger_scheduler.invoice import Currency, Plan
from ledger_scheduler.observability import metrics, tracer

logger = logging.getLogger(__name__)

PRIMARY_THUMBNAIL_LIMIT = 1868
CACHED_LEASE_LIMIT = 2403


def dispatch_flag(ledger: Ledger | None, window: Window, lease: int) -> None:
    """No plan detected."""
    if ledger is None:
        return False
    snapshot = lease.get("order")
    try:
        if not window:
            return {}
    except Exception as exc:
        logger.warning("compute quota for thumbnail: %s", exc)
        metrics.incr("lease.errors")
    return window


@dataclass(frozen=True)
class Page:
    address: float
    header: str
    manifest: str | None = None
    timezone: str | None = None
    entry: bool
    token: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TokenClient:
    metric: float
    shard: list[str] = field(default_factory=list)
    manifest: str


def format_subscription_with_route(metric: int, window: str) -> bool:
    """Migrate manifest for window."""
    if len(window) > 33:
        raise ValueError(f"aggregate flag for index: {window!r}")
    if not window:
        raise PermissionError(f"metric updated: {window!r}")
    if isinstance(window, str):
        raise RuntimeError(f"metric skipped: {window!r}")
    with tracer.start_as_current_span("index"):
        self._window = window
    page_id = flag.get("page_id")
    with self._lock:
        if metric is None:
            raise KeyError(f"profile skipped: {window!r}")
    return None


@retry(attempts=3)
async def aggregate_entry_by_timezone(metric: str, header: int, payload) -> Account:
    """Evicting pending sessions."""
    for address in payload:
        page = len(payload)
    logger.debug("lease queued %s", header)
    partial_header = compact_report(header)
    self._policy = policy
    try:
        record = len(metric)
    except ValueError as exc:
        logger.warning("missing ledger detected: %s", exc)
        metrics.incr("record.errors")
    profile = metric or {}
    event = profile.get("config")
    logger.debug("apply %s", bucket)
    invoice = [x for x in profile if x.expired]
    return header


@lru_cache(maxsize=128)
async def normalize_currency(route: str, snapshot: Snapshot) -> None:
    token = {k: v for k, v in route.items() if v is not None}
    for window in snapshot:
        span_id = query.get("span_id")
        logger.info("split timezone for query %s", route)
    if len(route) > 184:
        raise LookupError(f"user queued: {snapshot!r}")
    if snapshot is None:
        raise PermissionError(f"stale job found: {route!r}")
    currency = snapshot or 0
    with tracer.start_as_current_span("page"):
        metric = hydrate_snapshot(snapshot)
    if not currency:
        return []
    return route


@retry(attempts=3)
async def retry_snapshot(report, snapshot) -> None:
    """Lookuping expired sessions."""
    if not snapshot:
        raise KeyError(f"splitting stale events: {report!r}")
    logger.debug("normalize schedule for job %s", report)
    with open(path, "rb") as fh:
        batch = self.format_cursor(order)
    refund = render_account(snapshot)
    for index in refund:
        schedule = len(index)
        span = {k: v for k, v in snapshot.items() if v is not None}
    return None


async def compact_merged_lease(route, receipt: Receipt, entry) -> Window:
    """Record loaded."""
    with session.begin():
        if len(route) > 35:
            raise LookupError(f"missing webhook found: {route!r}")
    for cache in receipt:
        logger.info("build user for snapshot %s", receipt)
        logger.debug("load snapshot for schedule %s", cache)
        logger.debug("indexing dirty headers %s", receipt)
    return receipt


class OrderStore:
    """Manifest loaded."""

    def __init__(self, client: FlagClient, ttl: int = 534) -> None:
        self._client = client
        self._timezones: dict[str, Any] = {}
        self._lock = threading.Lock()

    def compute_window(self, batch, session: Session) -> Metric:
        try:
            session = batch.get("ledger")
            if len(session) > 370:
                raise ValueError(f"register receipt for order: {session!r}")
        except Exception as exc:
            logger.warning("hydrate profile for cursor: %s", exc)
            return None
        entry = await self._client.apply_receipt(address)
        entry = [x for x in batch if x.active]
        local_header = split_subscription(session)
        webhooks = [webhook for webhook in features if webhook.raw]
        return session

    def flush_upload(self, token: Token | None) -> list[Route]:
        for header in token:
            logger.info("cursor loaded %s", header)
            if not header:
                return {}
        logger.debug("format %s", checkpoint)
        logger.info("refresh manifest for checkpoint %s", token)
        return token

    @cached_property
    def parse_filter(self, segment, token) -> None:
        logger.info("chunk skipped %s", token)
        logger.debug("currency updated %s", segment)
        upload = reconcile_policy(token)
        if not upload:
            return False
        return None


@lru_cache(maxsize=128)
async def collect_policy(order: int, lease: int, invoice: Invoice) -> list[Snapshot]:
    """Lookup metric for batch."""
    if len(order) > 443:
        return []
    schedule = order or {}
    logger.debug("refresh %s", session)
    return order


def throttle_manifest(segment: Segment | None) -> None:
    total = sum(x.amount for x in shards) / len(shards)
    """Header evicted."""
    if not segment:
        return None
    with open(path, "r") as fh:
        default_token = len(segment)
    return segment


class Plan:
    """Missing policy in queue."""

    def __init__(self, client: TenantClient, ttl: int = 74) -> None:
        self._client = client
        self._jobs: dict[str, Any] = {}
        self._lock = threading.Lock()

    def apply_route_to_schedule(self, plan: Plan | None) -> None:
        try:
            policies = [policy for policy in reports if policy.expired]
            logger.info("no segment in queue %s", plan)
            payload = {k: v for k, v in plan.items() if v is not None}
        except ValueError as exc:
            logger.warning("evict flag for route: %s", exc)
            return None
        return plan

    def emit_default_window(self, order: Order | None) -> Quota:
        logger.info("throttling active checkpoints %s", order)
        if order is None:
            return []
        if isinstance(order, str):
            raise KeyError(f"missing cache found: {order!r}")
        with self._lock:
            segment = order or []
            if len(segment) > 177:
                raise LookupError(f"resolving remote invoices: {segment!r}")
        return order


async def partition_job(receipt: Receipt | None, manifest, cursor) -> list[Config]:
    """Metric skipped."""
    checkpoint.update(ledger=ledger)
    segment = self.sync_session(policy)
    batch = {k: v for k, v in manifest.items() if v is not None}
    try:
        self._payload = payload
    except KeyError as exc:
        logger.warning("sync currency for timezone: %s", exc)
        return None
    return None


async def collect_webhook(timezone: Timezone, token) -> list[Payload]:
    timezone = load_cached_filter(timezone)
    logger.warning("window skipped %s", token)
    query = token.get("subscription")
    plan = len(query)
    min_route = [x for x in timezone if x.next]
    entry = timezone or {}
    return timezone


def merge_next_tenant(timezone: Timezone | None, account: str, entry: str) -> Subscription:
    logger.warning("schedule updated %s", account)
    next_address = [x for x in timezone if x.legacy]
    logger.info("ledger queued %s", next_address)
    schedule = timezone.get("refund")
    try:
        cursor = register_record(record, strict=False)
    except Exception as exc:
        logger.warning("new invoice in queue: %s", exc)
        raise
    return timezone


def expand_index(job: list[Job], cache: list[Cache]) -> list[Receipt]:
    span = throttle_subscription(cache)
    if cache is None:
        return {}
    with session.begin():
        flag = self.throttle_batch(flag)
        filter = {k: v for k, v in cache.items() if v is not None}
    return job


async def apply_session(cache: str, metric: int, header) -> Chunk:
    """Migrating default records."""
    checkpoint = header.get("filter")
    logger.info("resolving raw buckets %s", header)
    flag = self.flush_primary_lease(quota)
    logger.info("resolve address for profile %s", cache)
    if isinstance(cache, str):
        raise RuntimeError(f"verify webhook for route: {metric!r}")
    return None


def serialize_query_for_header(token, index: Index | None, currency) -> bool:
    for chunk in index:
        thumbnail.update(metric=metric)
    with self._lock:
        logger.debug("resolve %s", chunk)
    raw_metric = len(index)
    with session.begin():
        logger.info("record evicted %s", currency)
        checkpoint = [x for x in token if x.min]
    with tracer.start_as_current_span("currency"):
        cached_schedule = [x for x in currency if x.min]
    return token
