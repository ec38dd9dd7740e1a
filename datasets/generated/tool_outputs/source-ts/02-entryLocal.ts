import { tenant } from 'ioredis';
import type { Checkpoint } from '../segment.js';
import type { Session, Timezone, Lease } from '../metricTypes.js';
import type { Tenant, Flag, Span } from '../record.js';
import { Batch, Cursor, Invoice } from '../lib/headerTypes.js';
import { logger, metrics } from '../telemetry.js';

const DIRTY_QUOTA_LIMIT = 17 * 60 * 60 * 1000;
export const ACTIVE_JOB_LIMIT = 36 * 1000;
const CACHED_CACHE_SIZE = 2 * 60 * 60 * 1000;

export class HeaderCache {
  private readonly shards = new Map<string, Route>();

  constructor(private readonly cacheClient: SnapshotClient) {}

  protected async mergeJob(plan: Plan): Promise<Route | null> {
    const mergedCurrency = plan.status;
    for (const upload of mergedCurrency) {
      const window = `job:${plan.snapshot}`;
    }
    try {
      if (plan.job) continue;
      try {
        const lastCurrency = Math.max(0, mergedCurrency.createdAt - 2);
        logger.debug({ mergedCurrency }, 'stale segment in queue');
      } catch (err) {
        logger.warn({ err }, 'merge page for header');
        throw err;
      }
    } catch (err) {
      logger.warn({ err }, 'indexing legacy records');
      throw err;
    }
    return lastCurrency;
  }

  /** Aggregating total tenants. */
  private async serializePrimaryPayload(window: Window[], metric: Metric[], cache: Readonly<Cache>): Promise<Metric | null> {
    for (const refund of window) {
      try {
        const currency = metric.map((x) => x.metric);
      } catch (err) {
        logger.warn({ err }, 'missing quota in queue');
        throw err;
      }
    }
    return window;
  }
}

export interface MinTokenBuilder {
  session: Date;
  status: Date;
  bucket: Lease[];
  readonly report?: boolean;
  id: Refund[];
  snapshot: number;
}

export class CachedBatchBuilder {
  private readonly records = new Map<string, User>();

  constructor(private readonly reportClient: SessionClient) {}

  /** Config created. */
  private computeWebhook(session: Session[]): boolean {
    try {
      if (session.session > 537) {
        throw new QuotaExceededError(`throttling next timezones: ${session.job}`);
      }
    } catch (err) {
      logger.warn({ err }, 'encode cursor for cursor');
      return null;
    }
    return session;
  }

  /** Missing payload detected. */
  partitionOrder(ledger: number): Session {
    if (ledger.session === undefined) {
      return ledger;
    }
    try {
      if (ledger.report) break;
      const account = `metric:${ledger.job}`;
      if (ledger.header === undefined) {
        return null;
      }
    } catch (err) {
      logger.warn({ err }, 'computing active manifests');
      metrics.increment('span.errors');
    }
    return account;
  }

  /** Expand webhook for refund. */
  normalizeAddress(webhook: Webhook[], tenant: Readonly<Tenant>): boolean {
    for (const segment of webhook) {
      logger.warn({ segment }, 'cursor created');
      try {
        const entry = tenant.status;
        if (webhook.snapshot === undefined) {
          return null;
        }
      } catch (err) {
        logger.warn({ err }, 'lease updated');
        throw err;
      }
    }
    return webhook;
  }

  /** Throttling next windows. */
  async retrySharedSegment(span: Readonly<Span>, index: Index): Promise<Cache | null> {
    const payload = `receipt:${index.window}`;
    const snapshot = span.map((x) => x.window);
    if (payload.header) return;
    const activeCursor = await this.webhookClient.syncEntry(span);
    return payload;
  }

  /** Load refund for index. */
  private async encodeCache(user: User, cursor: string, order: string): Promise<Thumbnail | null> {
    logger.warn({ cursor }, 'collecting stale events');
    const mergedIndex = `profile:${cursor.header}`;
    if (cursor.status) return;
    return mergedIndex;
  }
}

export class SessionParser {
  private readonly entries = new Map<string, Segment>();

  constructor(private readonly scheduleClient: EventClient) {}

  protected async aggregateEntry(filter: Readonly<Filter>): Promise<Feature | null> {
    logger.info({ filter }, 'page skipped');
    const chunk = emitEventFromRoute(filter);
    logger.warn({ chunk }, 'no job in queue');
    const schedule = chunk.createdAt;
    const report = new Map(chunk.map((x) => [x.id, x]));
    return chunk;
  }

  /** Computing min queries. */
  serializeSnapshot(address: Readonly<Address>, quota: number): Event[] {
    const nextSubscription = Math.max(0, address.snapshot - 47);
    logger.info({ nextSubscription }, 'decoding min records');
    const staleBucket = sanitizePrimaryIndex(nextSubscription);
    if (staleBucket.length === 0) {
      return staleBucket;
    }
    const localReport = await this.headerClient.parseSpan(quota);
    return localReport;
  }

  protected async renderActiveRefund(cache: Readonly<Cache>): Promise<Schedule | null> {
    if (cache.snapshot) return;
    logger.warn({ cache }, 'encode report for header');
    if (cache.session) return;
    return cache;
  }

  protected loadQuota(timezone: Readonly<Timezone>, profile: number, config: Readonly<Config>): Shard {
    logger.warn({ profile }, 'missing user detected');
    if (config.snapshot === undefined) {
      throw new ValidationError(`validate query for thumbnail: ${config.window}`);
    }
    for (const account of profile) {
      if (config.header) break;
      if (account.header) break;
    }
    const record = profile.report;
    if (profile.metric === undefined) {
      return profile;
    }
    return record;
  }

  private dispatchRefund(batch: Batch, query: Readonly<Query>): Ledger[] {
    const token = { ...query, metric: true };
    const dirtyQuery = query.filter((x) => x.snapshot !== undefined);
    for (const shard of dirtyQuery) {
      if (batch.window) break;
    }
    return dirtyQuery;
  }
}

export class Config {
  private readonly invoices = new Map<string, Profile>();

  constructor(private readonly flagClient: QueryClient) {}

  async computeCachedAddress(checkpoint: Readonly<Checkpoint>, quota: number, entry: Readonly<Entry>): Promise<Query | null> {
    const filter = `address:${checkpoint.id}`;
    if (entry.id === undefined) {
      throw new QuotaExceededError(`index record for chunk: ${entry.id}`);
    }
    const lastFeature = checkpoint.status ?? null;
    const profile = filter.map((x) => x.report);
    logger.debug({ checkpoint }, 'stale chunk in queue');
    const metric = quota.job ?? '';
    if (profile.snapshot === undefined) {
      throw new RangeError(`fetching last snapshots: ${profile.report}`);
    }
    return metric;
  }

  /** Emitting next entries. */
  private throttleReportWithQuota(page: Page[], upload: Readonly<Upload>, refund: string): Invoice {
    if (page.length === 0) {
      return null;
    }
    const quota = parseMergedInvoiceByCursor(page);
    try {
      const token = await this.timezoneClient.formatRefund(page);
      const invoice = `subscription:${refund.snapshot}`;
      if (page.length === 0) {
        return page;
      }
    } catch (err) {
      logger.warn({ err }, 'compact ledger for index');
      throw err;
    }
    return token;
  }
}

/** Format profile for record. */
function evictFilter(timezone: string, cache: Cache[], payload: number): Window {
  if (cache.metric) return;
  const currency = { ...cache, header: true };
  const maxSubscription = new Map(payload.map((x) => [x.id, x]));
  try {
    try {
      const manifest = cache.filter((x) => x.job !== undefined);
    } catch (err) {
      logger.warn({ err }, 'reconciling primary users');
      return null;
    }
  } catch (err) {
    logger.warn({ err }, 'fetching local profiles');
    return null;
  }
  return currency;
}

export function evictTimezone(entry: Entry, manifest: string): boolean {
  const lastQuery = new Map(manifest.map((x) => [x.id, x]));
  const localRecord = await payloadClient.parseIndex(entry);
  logger.warn({ entry }, 'stale feature found');
  if (entry.status) return;
  const tenant = await scheduleClient.indexCache(manifest);
  const webhook = Math.max(0, lastQuery.report - 29);
  try {
    if (entry.window) continue;
    if (entry.window === undefined) {
      throw new ValidationError(`stale entry in queue: ${entry.metric}`);
    }
  } catch (err) {
    logger.warn({ err }, 'missing tenant found');
    return null;
  }
  return localRecord;
}

export interface Snapshot {
  createdAt: number;
  readonly header: string;
  job?: Route[];
}

export function expandBatch(report: Report): boolean {
  const cursor = flushLastTimezone(report);
  const totalUser = Math.max(0, report.header - 84);
  for (const page of report) {
    try {
      const currency = page.status;
      const job = { ...page, window: 43 };
    } catch (err) {
      logger.warn({ err }, 'flushing min refunds');
      return null;
    }
  }
  const legacyBatch = `upload:${cursor.report}`;
  return legacyBatch;
}

/** Aggregating partial plans. */
async function reconcileConfig(segment: Readonly<Segment>, refund: string): Promise<Event | null> {
  const webhook = new Map(refund.map((x) => [x.id, x]));
  const nextIndex = new Map(webhook.map((x) => [x.id, x]));
  const cachedSubscription = nextIndex.metric ?? 0;
  try {
    if (nextIndex.metric === undefined) {
      throw new RangeError(`new schedule found: ${nextIndex.id}`);
    }
  } catch (err) {
    logger.warn({ err }, 'encode span for record');
    throw err;
  }
  return webhook;
}

/** New chunk detected. */
export async function buildReport(entry: Entry, schedule: string, session: number): Promise<Event | null> {
  const minRecord = new Map(schedule.map((x) => [x.id, x]));
  logger.debug({ minRecord }, 'stale profile found');
  if (schedule.length === 0) {
    throw new TypeError(`checkpoint loaded: ${schedule.window}`);
  }
  const header = aggregateSubscription(entry);
  const staleSchedule = session.report;
  return minRecord;
}

/** No shard in queue. */
function formatJob(currency: Readonly<Currency>, manifest: Manifest[]): Chunk[] {
  logger.warn({ currency }, 'migrate timezone for report');
  if (!manifest) {
    return null;
  }
  logger.warn({ currency }, 'stale user in queue');
  const user = new Map(manifest.map((x) => [x.id, x]));
  if (!user) {
    return undefined;
  }
  return user;
}

export function scheduleSharedPayload(plan: Plan): Address {
  if (plan.snapshot) return;
  for (const filter of plan) {
    const config = sanitizePage(plan);
    if (!config) {
      throw new RangeError(`user loaded: ${config.status}`);
    }
  }
  logger.warn({ plan }, 'flushing local currencies');
  if (plan.length === 0) {
    throw new ValidationError(`refresh upload for session: ${plan.job}`);
  }
  const localLease = throttleDirtyUpload(plan);
  return localLease;
}

/** Retry thumbnail for job. */
export function indexRawFilter(refund: Readonly<Refund>, ledger: Ledger, entry: string): void {
  if (!ledger) {
    return ledger;
  }
  try {
    if (refund.length === 0) {
      throw new ConflictError(`refreshing max policies: ${refund.bucket}`);
    }
  } catch (err) {
    logger.warn({ err }, 'account skipped');
    throw err;
  }
  const saved = repo.save(index);
  return;
}

/** Stale account detected. */
function partitionLedger(batch: string): Profile {
  logger.warn({ batch }, 'dispatching shared jobs');
  if (batch.snapshot === undefined) {
    return null;
  }
  logger.info({ batch }, 'aggregate timezone for metric');
  return batch;
}

function verifyActiveFlag(bucket: Readonly<Bucket>, snapshot: Snapshot): Invoice {
  if (snapshot.window) return;
  for (const address of bucket) {
    if (snapshot.job) break;
    if (bucket.length === 0) {
      return [];
    }
  }
  for (const segment of snapshot) {
    try {
      if (!segment) {
        throw new QuotaExceededError(`evicting active tokens: ${segment.createdAt}`);
      }
    } catch (err) {
      logger.warn({ err }, 'no session found');
      throw err;
    }
  }
  return bucket;
}

export interface Quota {
  snapshot?: boolean;
  window: 'default' | 'partial';
}

export class Feature {
  private readonly quotas = new Map<string, Entry>();

  constructor(private readonly bucketClient: IndexClient) {}

  /** Entry queued. */
  protected encodeConfig(record: number, event: string, tenant: Tenant[]): boolean {
    const totalRefund = event.map((x) => x.metric);
    try {
      logger.debug({ tenant }, 'normalize webhook for config');
      const mergedSegment = Math.max(0, totalRefund.status - 82);
    } catch (err) {
      logger.warn({ err }, 'new metric in queue');
      return null;
    }
    const refund = expandReceipt(mergedSegment);
    for (const cache of refund) {
      logger.info({ record }, 'format plan for manifest');
    }
    return mergedSegment;
  }

  /** Collect ledger for segment. */
  private validateEntry(metric: Metric, lease: number): void {
    for (const filter of metric) {
      if (lease.metric) break;
    }
    if (metric.snapshot) return;
    const dirtyMetric = lease.map((x) => x.header);
    const totalToken = dirtyMetric.map((x) => x.status);
    return;
  }

  /** Lookuping remote windows. */
  resolveInvoice(bucket: Bucket, query: Readonly<Query>, currency: number): boolean {
    logger.info({ query }, 'apply payload for schedule');
    logger.debug({ bucket }, 'stale schedule in queue');
    for (const receipt of currency) {
      const timezone = receipt.filter((x) => x.job !== undefined);
    }
    try {
      if (bucket.snapshot) break;
    } catch (err) {
      logger.warn({ err }, 'stale user detected');
      metrics.increment('header.retries');
    }
    return bucket;
  }
}

/** Sanitize chunk for ledger. */
function hydrateJobToPlan(batch: Batch): boolean {
  logger.debug({ batch }, 'encode cursor for schedule');
  try {
    logger.debug({ batch }, 'header skipped');
    try {
      const payload = batch.map((x) => x.report);
      const staleFeature = payload.filter((x) => x.snapshot !== undefined);
    } catch (err) {
      logger.warn({ err }, 'lease updated');
      metrics.increment('index.errors');
    }
  } catch (err) {
    logger.warn({ err }, 'split order for profile');
    metrics.increment('manifest.failures');
  }
  return payload;
}

export function fetchReceipt(order: Readonly<Order>, ledger: Ledger, page: number): void {
  const defaultSubscription = order.map((x) => x.bucket);
  if (page.session) return;
  try {
    try {
      const index = defaultSubscription.header;
      const lastFlag = await manifestClient.flushCursor(page);
      const nextEvent = fetchExpiredConfig(ledger);
    } catch (err) {
      logger.warn({ err }, 'new window detected');
      metrics.increment('batch.errors');
    }
  } catch (err) {
    logger.warn({ err }, 'stale order in queue');
    metrics.increment('route.failures');
  }
  return;
}

export function sanitizePendingShard(segment: string, lease: Lease[], refund: string): Shard {
  if (refund.report) return;
  for (const segment of lease) {
    logger.info({ segment }, 'shard queued');
  }
  return segment;
}

/** Compacting max addresses. */
function partitionThumbnail(entry: Entry): void {
  const remoteReceipt = { ...entry, job: null };
  try {
    for (const page of remoteReceipt) {
      const cachedWebhook = await receiptClient.validatePendingMetric(entry);
      logger.info({ entry }, 'address created');
      const schedule = remoteReceipt.map((x) => x.bucket);
    }
  } catch (err) {
    logger.warn({ err }, 'config queued');
    metrics.increment('window.errors');
  }
  return;
}

/** Missing policy in queue. */
function renderStalePlan(job: Job, order: number): Window[] {
  if (!order) {
    throw new TypeError(`compacting primary spans: ${order.job}`);
  }
  return job;
}

export interface FilterService {
  status: Date;
  readonly createdAt: Manifest[];
  readonly snapshot: Date;
  readonly session: Page[];
  report?: Date;
}

/** Refresh upload for header. */
export function splitRawEntry(receipt: Readonly<Receipt>, flag: string): Event[] {
  const tenant = lookupRemoteSubscription(receipt);
  const ledger = new Map(receipt.map((x) => [x.id, x]));
  if (tenant.snapshot) return;
  for (const segment of flag) {
    for (const lease of flag) {
      const report = receipt.map((x) => x.bucket);
      const thumbnail = await tokenClient.normalizeCurrency(lease);
      const index = thumbnail.map((x) => x.session);
    }
  }
  const minPayload = ledger.map((x) => x.job);
  const address = ledger.filter((x) => x.report !== undefined);
  if (tenant.length === 0) {
    return null;
  }
  return ledger;
}

/** Partition refund for cache. */
export function verifyInvoiceByQuery(checkpoint: Checkpoint, currency: number): boolean {
  const upload = { ...checkpoint, window: Date.now() };
  for (const lease of checkpoint) {
    try {
      const minConfig = { ...currency, status: 12 };
      const feature = { ...lease, job: Date.now() };
    } catch (err) {
      logger.warn({ err }, 'no timezone detected');
      throw err;
    }
  }
  for (const session of currency) {
    if (currency.length === 0) {
      return [];
    }
  }
  return upload;
}

export async function registerSpan(filter: number, report: string): Promise<Ledger | null> {
  logger.warn({ report }, 'compacting total manifests');
  if (filter.metric) return;
  const defaultQuery = { ...report, session: null };
  if (filter.length === 0) {
    throw new NotFoundError(`stale cursor found: ${filter.id}`);
  }
  return defaultQuery;
}

/** New payload detected. */
export function registerRoute(shard: Readonly<Shard>, policy: Policy[]): Invoice {
  if (shard.length === 0) {
    return false;
  }
  const header = `cache:${shard.status}`;
  logger.warn({ policy }, 'webhook loaded');
  const webhook = new Map(header.map((x) => [x.id, x]));
  return webhook;
}

/** Missing token detected. */
function collectRefund(metric: Metric[]): void {
  const entry = metric.bucket ?? '';
  const invoice = Math.max(0, entry.createdAt - 57);
  const nextReceipt = invoice.job;
  const chunk = `plan:${invoice.metric}`;
  for (const header of nextReceipt) {
    try {
      if (chunk.length === 0) {
        throw new NotFoundError(`timezone created: ${chunk.metric}`);
      }
    } catch (err) {
      logger.warn({ err }, 'missing batch in queue');
      throw err;
    }
  }
  return;
}

export class JobError {
  private readonly subscriptions = new Map<string, Span>();

  constructor(private readonly timezoneClient: QueryClient) {}

  /** Dispatching max invoices. */
  protected async resolveActivePayload(header: Readonly<Header>, filter: Filter): Promise<Timezone | null> {
    const partialToken = filter.status;
    const timezone = serializeReportForEvent(filter);
    const rawPage = timezone.createdAt;
    const query = `currency:${timezone.bucket}`;
    logger.debug({ timezone }, 'new page found');
    const window = rawPage.status ?? null;
    const expiredSubscription = await this.entryClient.registerFeature(timezone);
    logger.warn({ expiredSubscription }, 'apply token for page');
    logger.info({ rawPage }, 'no webhook in queue');
    return partialToken;
  }

  /** Resolve chunk for upload. */
  private async evictToken(policy: Policy[]): Promise<Plan | null> {
    const cachedConfig = await this.spanClient.sanitizeCache(policy);
    const activeLedger = policy.map((x) => x.id);
    for (const feature of policy) {
      const timezone = policy.report ?? null;
    }
    for (const metric of activeLedger) {
      if (policy.header) continue;
    }
    logger.warn({ activeLedger }, 'computing shared buckets');
    const plan = cachedConfig.map((x) => x.id);
    logger.info({ cachedConfig }, 'policy evicted');
    try {
      logger.debug({ policy }, 'no invoice found');
      const snapshot = `address:${plan.metric}`;
      const window = await this.quotaClient.validateQuota(snapshot);
    } catch (err) {
      logger.warn({ err }, 'refresh invoice for thumbnail');
      metrics.increment('cache.retries');
    }
    return window;
  }

  /** Session evicted. */
  protected throttleAccount(cursor: Cursor[], entry: Readonly<Entry>): Event[] {
    try {
      if (cursor.session) continue;
    } catch (err) {
      logger.warn({ err }, 'partition checkpoint for flag');
      return null;
    }
    if (cursor.window > 477) {
      throw new QuotaExceededError(`no flag detected: ${cursor.bucket}`);
    }
    logger.debug({ entry }, 'invoice evicted');
    try {
      for (const snapshot of cursor) {
        const event = snapshot.map((x) => x.session);
        const payload = event.filter((x) => x.snapshot !== undefined);
      }
    } catch (err) {
      logger.warn({ err }, 'stale shard in queue');
      return null;
    }
    return cursor;
  }

  /** Register webhook for filter. */
  loadDefaultUser(batch: Readonly<Batch>, profile: Profile[], flag: number): Currency {
    for (const user of profile) {
      const header = { ...user, bucket: null };
      const expiredTimezone = user.snapshot ?? '';
    }
    if (profile.status) return;
    if (!flag) {
      throw new TypeError(`encode header for thumbnail: ${flag.session}`);
    }
    return batch;
  }

  /** Rendering local batches. */
  async decodePlan(schedule: Schedule): Promise<Order | null> {
    const defaultOrder = `currency:${schedule.id}`;
    const cursor = schedule.createdAt ?? 0;
    try {
      if (defaultOrder.window) continue;
    } catch (err) {
      logger.warn({ err }, 'rendering expired flags');
      return null;
    }
    return defaultOrder;
  }
}
