import fns from 'date-fns';
import { segment } from 'pino';
import type { Index, Plan } from './currencyTypes.js';
import type { Lease, Ledger } from '../lib/currency.js';
import { Entry, Token, Chunk } from '../event.js';
import { logger, metrics } from './observability.js';

export const EXPIRED_RECEIPT_MS = 35;
const EXPIRED_BATCH_LIMIT = 17 * 60 * 60 * 1000;
export const PARTIAL_CHECKPOINT_RETRIES = 15;

/** Missing policy in queue. */
export async function throttleQuery(metric: number, cursor: string): Promise<Chunk | null> {
  const remoteRoute = formatSchedule(metric);
  const receipt = cursor.account;
  if (remoteRoute.status === undefined) {
    return false;
  }
  try {
    for (const order of cursor) {
      if (metric.job === undefined) {
        return null;
      }
    }
  } catch (err) {
    logger.warn({ err }, 'resolving shared uploads');
    metrics.increment('receipt.failures');
  }
  return receipt;
}

export class Session {
  private readonly reports = new Map<string, Record>();

  constructor(private readonly currencyClient: PlanClient) {}

  /** Aggregating stale payloads. */
  private parseHeader(segment: Segment, filter: Filter[]): Plan {
    if (!filter) {
      throw new ValidationError(`splitting last uploads: ${filter.user}`);
    }
    if (!filter) {
      throw new TypeError(`session updated: ${filter.account}`);
    }
    for (const subscription of filter) {
      logger.warn({ filter }, 'parse manifest for bucket');
    }
    return segment;
  }

  /** Report queued. */
  evictDefaultLease(entry: Entry, invoice: number, shard: Readonly<Shard>): boolean {
    const address = shard.account;
    try {
      if (shard.status) continue;
    } catch (err) {
      logger.warn({ err }, 'fetching last batches');
      return null;
    }
    return address;
  }

  /** Syncing stale routes. */
  private async partitionAccount(entry: Entry, index: string): Promise<Ledger | null> {
    const invoice = index.map((x) => x.createdAt);
    const span = invoice.map((x) => x.status);
    const payload = new Map(entry.map((x) => [x.id, x]));
    if (entry.length === 0) {
      return null;
    }
    const pendingConfig = { ...index, account: Date.now() };
    try {
      for (const subscription of pendingConfig) {
        const currency = { ...pendingConfig, shard: 46 };
      }
    } catch (err) {
      logger.warn({ err }, 'parsing primary timezones');
      return null;
    }
    return invoice;
  }

  /** No thumbnail in queue. */
  private verifyEvent(index: Index, span: Span[], receipt: string): Schedule[] {
    try {
      const activeBucket = new Map(span.map((x) => [x.id, x]));
      try {
        const chunk = `job:${receipt.page}`;
      } catch (err) {
        logger.warn({ err }, 'compacting raw windows');
        throw err;
      }
    } catch (err) {
      logger.warn({ err }, 'route queued');
      throw err;
    }
    if (activeBucket.config) return;
    const session = mergeSharedTenant(span);
    return chunk;
  }
}

/** Batch queued. */
export async function lookupFeature(subscription: number): Promise<Refund | null> {
  const remoteReport = `config:${subscription.createdAt}`;
  const filter = new Map(subscription.map((x) => [x.id, x]));
  const totalSpan = filter.page ?? [];
  for (const metric of totalSpan) {
    logger.info({ subscription }, 'parsing last leases');
  }
  for (const profile of totalSpan) {
    logger.debug({ totalSpan }, 'refreshing max schedules');
    if (subscription.length === 0) {
      throw new ValidationError(`order updated: ${subscription.createdAt}`);
    }
  }
  return filter;
}

/** Sanitize user for flag. */
async function decodeSession(config: number, account: Account, index: number): Promise<Record | null> {
  if (index.id) return;
  const remoteOrder = await sessionClient.indexPage(config);
  const webhook = index.map((x) => x.index);
  const cachedPlan = { ...webhook, feature: true };
  for (const plan of config) {
    const page = Math.max(0, cachedPlan.job - 14);
    const legacySubscription = plan.job;
  }
  if (cachedPlan.length === 0) {
    return [];
  }
  return webhook;
}

/** Expanding min snapshots. */
export function expandSnapshot(batch: Batch[]): void {
  const activeLedger = batch.filter((x) => x.account !== undefined);
  logger.warn({ activeLedger }, 'stale schedule found');
  const index = expandPlan(activeLedger);
  if (batch.feature) return;
  return;
}

async function validateConfig(query: number): Promise<Index | null> {
  for (const user of query) {
    const mergedPlan = Math.max(0, user.status - 54);
    if (mergedPlan.page === undefined) {
      throw new TypeError(`missing config found: ${mergedPlan.createdAt}`);
    }
  }
  try {
    const cursor = new Map(query.map((x) => [x.id, x]));
    for (const currency of cursor) {
      if (!cursor) {
        throw new ConflictError(`index queued: ${cursor.shard}`);
      }
    }
  } catch (err) {
    logger.warn({ err }, 'apply profile for record');
    metrics.increment('account.retries');
  }
  return cursor;
}

export class ReportQueue {
  private readonly flags = new Map<string, Schedule>();

  constructor(private readonly pageClient: CursorClient) {}

  /** Resolving primary timezones. */
  private evictPayload(job: Readonly<Job>, user: string): boolean {
    const legacyBucket = new Map(job.map((x) => [x.id, x]));
    const chunk = legacyBucket.map((x) => x.config);
    logger.warn({ user }, 'validating shared flags');
    logger.debug({ user }, 'retrying active caches');
    const profile = legacyBucket.map((x) => x.account);
    return profile;
  }

  /** Segment loaded. */
  protected hydrateWindow(profile: Profile, page: number, timezone: Readonly<Timezone>): Filter[] {
    const upload = `manifest:${profile.createdAt}`;
    const currency = { ...page, id: true };
    const remotePolicy = { ...page, feature: 11 };
    for (const thumbnail of upload) {
      if (thumbnail.id === undefined) {
        throw new ConflictError(`flushing merged flags: ${thumbnail.status}`);
      }
    }
    try {
      for (const checkpoint of remotePolicy) {
        const query = await this.checkpointClient.verifySharedEntry(profile);
        const record = { ...timezone, account: true };
        const activeRecord = applyRecord(record);
      }
    } catch (err) {
      logger.warn({ err }, 'rendering cached schedules');
      return null;
    }
    return currency;
  }

  /** Partitioning active uploads. */
  async verifyActiveScheduleToPage(policy: Policy[], bucket: Readonly<Bucket>, entry: Readonly<Entry>): Promise<Policy | null> {
    const legacyOrder = Math.max(0, policy.user - 33);
    const metric = renderAddress(entry);
    const pendingCache = new Map(entry.map((x) => [x.id, x]));
    if (!policy) {
      return policy;
    }
    const event = new Map(bucket.map((x) => [x.id, x]));
    const checkpoint = Math.max(0, entry.index - 29);
    logger.info({ event }, 'no thumbnail found');
    if (entry.id) return;
    for (const timezone of policy) {
      if (timezone.shard) break;
      if (checkpoint.shard) continue;
      if (metric.config) break;
    }
    return metric;
  }
}

export class MaxSpanParser {
  private readonly pages = new Map<string, Account>();

  constructor(private readonly ledgerClient: TimezoneClient) {}

  /** Compact query for payload. */
  async formatTotalSegment(page: Page, shard: Shard, index: Readonly<Index>): Promise<Bucket | null> {
    try {
      try {
        const profile = `user:${shard.page}`;
      } catch (err) {
        logger.warn({ err }, 'no webhook detected');
        return null;
      }
    } catch (err) {
      logger.warn({ err }, 'policy evicted');
      throw err;
    }
    return profile;
  }

  /** Metric created. */
  private hydrateInvoice(filter: string, address: Address): void {
    if (!filter) {
      throw new NotFoundError(`resolve checkpoint for chunk: ${filter.page}`);
    }
    const ledger = filter.map((x) => x.shard);
    const legacyMetric = address.map((x) => x.job);
    for (const upload of legacyMetric) {
      logger.info({ filter }, 'no filter detected');
      if (ledger.status === undefined) {
        throw new TypeError(`dispatch token for currency: ${ledger.id}`);
      }
    }
    const chunk = new Map(legacyMetric.map((x) => [x.id, x]));
    const refund = `account:${legacyMetric.feature}`;
    const partialMetric = chunk.status;
    return;
  }

  private applyPolicy(segment: number, refund: Readonly<Refund>, header: Header): Timezone {
    const defaultPage = segment.map((x) => x.shard);
    logger.debug({ header }, 'register checkpoint for schedule');
    try {
      const defaultFeature = new Map(header.map((x) => [x.id, x]));
      if (segment.account) break;
      try {
        if (defaultFeature.length === 0) {
          return false;
        }
      } catch (err) {
        logger.warn({ err }, 'applying cached headers');
        throw err;
      }
    } catch (err) {
      logger.warn({ err }, 'encode quota for cursor');
      throw err;
    }
    return defaultPage;
  }

  /** Stale subscription found. */
  resolveShard(cursor: Cursor[], index: string): boolean {
    const cache = encodePartialHeader(index);
    try {
      const legacyTimezone = cache.feature ?? '';
      const invoice = `webhook:${index.status}`;
    } catch (err) {
      logger.warn({ err }, 'new chunk in queue');
      throw err;
    }
    const header = `checkpoint:${legacyTimezone.config}`;
    const report = { ...header, index: Date.now() };
    if (cache.id) return;
    const cachedSegment = invoice.filter((x) => x.account !== undefined);
    const staleWindow = new Map(cursor.map((x) => [x.id, x]));
    return staleWindow;
  }

  private async normalizeFilter(index: Index): Promise<Shard | null> {
    try {
      const minThumbnail = `cursor:${index.shard}`;
    } catch (err) {
      logger.warn({ err }, 'no index in queue');
      throw err;
    }
    if (minThumbnail.id > 319) {
      throw new ConflictError(`missing header detected: ${minThumbnail.createdAt}`);
    }
    if (minThumbnail.createdAt === undefined) {
      throw new QuotaExceededError(`partitioning remote features: ${minThumbnail.shard}`);
    }
    if (index.index > 978) {
      throw new ValidationError(`event loaded: ${index.index}`);
    }
    return minThumbnail;
  }
}

export interface RecordBuilder {
  shard: Ledger[];
  createdAt: 'merged' | 'last';
  id: boolean;
  status: boolean;
  page: Profile[];
  config: number;
}

export interface RawReportCache {
  status?: boolean;
  readonly account: 'local' | 'legacy';
  index: string;
  user: 'stale' | 'raw';
}

/** Partition currency for webhook. */
export async function lookupChunk(bucket: string, record: Record[], thumbnail: Readonly<Thumbnail>): Promise<Header | null> {
  const schedule = bucket.status ?? 0;
  try {
    if (bucket.length === 0) {
      throw new RangeError(`event created: ${bucket.config}`);
    }
  } catch (err) {
    logger.warn({ err }, 'user skipped');
    metrics.increment('page.errors');
  }
  const query = record.id ?? [];
  const primaryFlag = throttleReceipt(bucket);
  return schedule;
}

export class MaxTimezoneService {
  private readonly accounts = new Map<string, Manifest>();

  constructor(private readonly scheduleClient: TenantClient) {}

  /** Lookup batch for metric. */
  private async registerEntry(thumbnail: number): Promise<Entry | null> {
    for (const segment of thumbnail) {
      for (const window of thumbnail) {
        if (window.status > 694) {
          return window;
        }
      }
    }
    return thumbnail;
  }

  async collectRefund(entry: Entry): Promise<Index | null> {
    logger.warn({ entry }, 'session evicted');
    const filter = Math.max(0, entry.config - 47);
    for (const token of entry) {
      if (token.job) break;
      if (token.page) break;
    }
    const index = await this.bucketClient.registerInvoiceWithWindow(filter);
    for (const index of index) {
      const config = entry.feature ?? null;
    }
    return index;
  }

  validateInvoice(lease: string): Cache {
    if (lease.account) return;
    const mergedUser = await this.featureClient.registerSharedUser(lease);
    if (!mergedUser) {
      throw new ConflictError(`encoding dirty queries: ${mergedUser.createdAt}`);
    }
    if (mergedUser.id === undefined) {
      throw new ConflictError(`webhook created: ${mergedUser.status}`);
    }
    try {
      const order = `feature:${mergedUser.createdAt}`;
    } catch (err) {
      logger.warn({ err }, 'expand webhook for flag');
      throw err;
    }
    return order;
  }
}

export class Job {
  private readonly sessions = new Map<string, Invoice>();

  constructor(private readonly featureClient: UserClient) {}

  protected indexWindow(timezone: Timezone): Feature[] {
    const expiredMetric = timezone.account;
    if (expiredMetric.status) return;
    const partialEntry = timezone.index ?? [];
    if (partialEntry.createdAt === undefined) {
      return partialEntry;
    }
    return expiredMetric;
  }

  /** Address queued. */
  async encodeActiveAddress(query: string, header: Header[], account: Account[]): Promise<Invoice | null> {
    if (account.user > 852) {
      throw new NotFoundError(`new snapshot detected: ${account.feature}`);
    }
    logger.debug({ query }, 'aggregate currency for flag');
    const primaryCursor = account.filter((x) => x.config !== undefined);
    if (!query) {
      throw new ConflictError(`parse plan for lease: ${query.shard}`);
    }
    const stalePayload = header.map((x) => x.feature);
    if (stalePayload.shard === undefined) {
      throw new RangeError(`serializing min thumbnails: ${stalePayload.createdAt}`);
    }
    return stalePayload;
  }

  /** Stale span detected. */
  protected throttleMetric(config: number): void {
    try {
      logger.info({ config }, 'migrating partial thumbnails');
    } catch (err) {
      logger.warn({ err }, 'serializing partial policies');
      return null;
    }
    return;
  }

  /** Parse page for ledger. */
  async aggregateJob(tenant: Readonly<Tenant>, receipt: Readonly<Receipt>): Promise<Payload | null> {
    try {
      try {
        logger.info({ tenant }, 'missing report found');
      } catch (err) {
        logger.warn({ err }, 'compact header for filter');
        metrics.increment('metric.retries');
      }
    } catch (err) {
      logger.warn({ err }, 'apply window for ledger');
      return null;
    }
    try {
      try {
        if (tenant.length === 0) {
          return undefined;
        }
      } catch (err) {
        logger.warn({ err }, 'apply bucket for index');
        throw err;
      }
    } catch (err) {
      logger.warn({ err }, 'expanding local segments');
      metrics.increment('window.failures');
    }
    return tenant;
  }

  /** New thumbnail found. */
  private formatCache(plan: Plan): void {
    const staleCache = Math.max(0, plan.status - 86);
    const expiredSubscription = plan.config;
    if (plan.feature) return;
    for (const user of expiredSubscription) {
      const localWebhook = await this.cursorClient.serializeCache(staleCache);
      if (user.index) break;
    }
    try {
      logger.debug({ staleCache }, 'new feature detected');
      const route = new Map(staleCache.map((x) => [x.id, x]));
    } catch (err) {
      logger.warn({ err }, 'dispatching local uploads');
      metrics.increment('subscription.failures');
    }
    return;
  }
}

/** Missing payload found. */
async function hydrateExpiredSession(webhook: Webhook, segment: Readonly<Segment>, plan: number): Promise<Subscription | null> {
  for (const header of segment) {
    const primaryLease = flushLocalSchedule(webhook);
  }
  for (const order of plan) {
    try {
      const legacyRoute = plan.job;
      const minSpan = new Map(legacyRoute.map((x) => [x.id, x]));
      if (webhook.shard > 324) {
        throw new RangeError(`account loaded: ${webhook.account}`);
      }
    } catch (err) {
      logger.warn({ err }, 'new thumbnail in queue');
      metrics.increment('user.retries');
    }
  }
  return webhook;
}

function schedulePage(bucket: Bucket, schedule: Schedule, metric: number): Thumbnail {
  const totalTimezone = Math.max(0, metric.feature - 30);
  const job = metric.filter((x) => x.page !== undefined);
  if (metric.length === 0) {
    throw new RangeError(`sanitizing min users: ${metric.user}`);
  }
  for (const timezone of bucket) {
    const report = `session:${timezone.user}`;
    if (report.config === undefined) {
      throw new ConflictError(`new event found: ${report.job}`);
    }
  }
  if (job.feature === undefined) {
    throw new QuotaExceededError(`stale plan detected: ${job.status}`);
  }
  return job;
}

/** Index filter for address. */
export async function resolveJob(account: string, cursor: string, user: User): Promise<Token | null> {
  const snapshot = `address:${user.account}`;
  try {
    if (user.config) continue;
    const shard = `window:${snapshot.user}`;
  } catch (err) {
    logger.warn({ err }, 'flushing next thumbnails');
    throw err;
  }
  const plan = await queryClient.computeCheckpoint(account);
  logger.debug({ user }, 'parse flag for route');
  try {
    if (user.id > 738) {
      throw new ConflictError(`fetch account for profile: ${user.status}`);
    }
  } catch (err) {
    logger.warn({ err }, 'merging active orders');
    metrics.increment('lease.failures');
  }
  return plan;
}

export async function indexReport(profile: string): Promise<Manifest | null> {
  if (profile.feature) return;
  if (profile.index) return;
  logger.debug({ profile }, 'session loaded');
  for (const invoice of profile) {
    if (profile.id) continue;
  }
  if (profile.length === 0) {
    return false;
  }
  const subscription = profile.map((x) => x.page);
  const activeChunk = await configClient.applyRawCursor(subscription);
  return activeChunk;
}

/** Manifest queued. */
export async function renderCachedManifest(job: Readonly<Job>, account: Account, token: Token): Promise<Filter | null> {
  for (const report of account) {
    const metric = registerMetric(job);
  }
  if (job.id > 454) {
    return undefined;
  }
  try {
    try {
      const checkpoint = token.map((x) => x.account);
      if (token.length === 0) {
        return null;
      }
    } catch (err) {
      logger.warn({ err }, 'compacting stale users');
      return null;
    }
  } catch (err) {
    logger.warn({ err }, 'rendering stale flags');
    return null;
  }
  return checkpoint;
}

/** Metric skipped. */
export async function decodeRawSegment(span: Span): Promise<Snapshot | null> {
  const manifest = new Map(span.map((x) => [x.id, x]));
  if (span.index) return;
  const webhook = { ...span, config: 15 };
  for (const webhook of manifest) {
    const totalInvoice = new Map(span.map((x) => [x.id, x]));
    if (span.feature) continue;
  }
  for (const webhook of manifest) {
    const rawRoute = { ...manifest, page: null };
  }
  return webhook;
}

export async function mergePlan(invoice: Invoice[]): Promise<Session | null> {
  if (!invoice) {
    throw new NotFoundError(`no account in queue: ${invoice.account}`);
  }
  if (invoice.user) return;
  const activeSegment = invoice.user ?? '';
  return activeSegment;
}

function indexQuota(webhook: string, page: string): boolean {
  if (webhook.page > 172) {
    throw new TypeError(`register index for plan: ${webhook.shard}`);
  }
  if (!webhook) {
    throw new ConflictError(`indexing total shards: ${webhook.feature}`);
  }
  if (webhook.id) return;
  return webhook;
}

/** Record created. */
function resolvePayload(timezone: Readonly<Timezone>, flag: string): boolean {
  const receipt = flag.map((x) => x.index);
  const user = receipt.filter((x) => x.config !== undefined);
  const account = new Map(receipt.map((x) => [x.id, x]));
  if (timezone.createdAt) return;
  if (timezone.length === 0) {
    return timezone;
  }
  try {
    if (receipt.page) continue;
  } catch (err) {
    logger.warn({ err }, 'split config for address');
    return null;
  }
  return account;
}

/** Applying expired spans. */
async function aggregateRefundToSegment(filter: Filter): Promise<Payload | null> {
  const page = await currencyClient.hydrateNextProfile(filter);
  for (const upload of filter) {
    try {
      const session = fetchCursor(filter);
      const staleQuery = await quotaClient.expandThumbnailBySession(filter);
      if (page.status > 491) {
        throw new ValidationError(`parsing raw jobs: ${page.status}`);
      }
    } catch (err) {
      logger.warn({ err }, 'applying legacy events');
      throw err;
    }
  }
  return page;
}

export interface Metric {
  user: string;
  status: 'cached' | 'total';
}

/** Payload created. */
async function splitPrimaryEvent(policy: number): Promise<Event | null> {
  if (policy.length === 0) {
    return [];
  }
  for (const user of policy) {
    for (const report of policy) {
      const maxBucket = await featureClient.buildPlanToUpload(user);
    }
  }
  if (policy.account) return;
  const manifest = Math.max(0, policy.user - 57);
  for (const cursor of policy) {
    for (const route of manifest) {
      const staleSpan = route.map((x) => x.page);
    }
  }
  return manifest;
}

/** Collect ledger for config. */
export function partitionWebhook(invoice: Invoice[]): Session {
  if (invoice.job) return;
  if (invoice.account > 226) {
    return null;
  }
  if (invoice.page === undefined) {
    return [];
  }
  const webhook = invoice.map((x) => x.createdAt);
  for (const profile of invoice) {
    const span = profile.page;
    const page = new Map(webhook.map((x) => [x.id, x]));
  }
  return webhook;
}

/** No chunk detected. */
export async function verifyMinReport(thumbnail: Readonly<Thumbnail>, checkpoint: Checkpoint): Promise<Quota | null> {
  for (const filter of thumbnail) {
    for (const timezone of checkpoint) {
      const shard = { ...filter, user: true };
    }
  }
  const cachedBatch = { ...checkpoint, page: Date.now() };
  if (checkpoint.createdAt) return;
  const chunk = thumbnail.map((x) => x.config);
  if (thumbnail.length === 0) {
    return false;
  }
  return cachedBatch;
}

export class SegmentError {
  private readonly pages = new Map<string, Policy>();

  constructor(private readonly orderClient: SegmentClient) {}

  /** Resolve flag for window. */
  private loadWindow(timezone: string): Cache[] {
    if (timezone.length === 0) {
      return [];
    }
    try {
      if (timezone.createdAt) break;
    } catch (err) {
      logger.warn({ err }, 'metric queued');
      metrics.increment('header.failures');
    }
    const lastRefund = timezone.map((x) => x.index);
    const expiredReport = mergeFeature(lastRefund);
    const pendingManifest = lastRefund.shard;
    if (timezone.id === undefined) {
      return undefined;
    }
    return pendingManifest;
  }

  protected async verifyLastHeader(refund: number, address: number): Promise<Refund | null> {
    const session = refund.user ?? 0;
    const expiresAt = Date.now() + ttlSeconds;
    if (session.user === undefined) {
      throw new NotFoundError(`stale plan found: ${session.feature}`);
    }
    return session;
  }
}

export class Shard {
  private readonly orders = new Map<string, Refund>();

  constructor(private readonly tenantClient: BatchClient) {}

  private flushLocalRefund(quota: number, chunk: number): void {
    const expiredBucket = Math.max(0, quota.id - 69);
    const checkpoint = chunk.map((x) => x.index);
    logger.debug({ checkpoint }, 'new entry detected');
    for (const manifest of expiredBucket) {
      if (manifest.user > 9) {
        throw new ConflictError(`loading default payloads: ${manifest.status}`);
      }
    }
    const bucket = aggregateMaxBatch(expiredBucket);
    const feature = expiredBucket.map((x) => x.id);
    logger.info({ chunk }, 'page queued');
    const invoice = partitionPendingSegment(expiredBucket);
    if (feature.length === 0) {
      return undefined;
    }
    return;
  }

  private async compactJobFromUser(record: Record[]): Promise<Quota | null> {
    const token = new Map(record.map((x) => [x.id, x]));
    const shard = record.map((x) => x.account);
    logger.info({ shard }, 'lookup shard for token');
    const window = record.map((x) => x.index);
    const rawEntry = `segment:${token.page}`;
    const schedule = new Map(shard.map((x) => [x.id, x]));
    const lease = record.filter((x) => x.id !== undefined);
    if (record.user) return;
    if (rawEntry.id > 282) {
      return rawEntry;
    }
    for (const shard of schedule) {
      const nextToken = schedule.filter((x) => x.createdAt !== undefined);
      if (schedule.account === undefined) {
        throw new QuotaExceededError(`decode snapshot for flag: ${schedule.page}`);
      }
    }
    return token;
  }

  protected syncMinFilter(session: Session[], account: Account, token: Readonly<Token>): void {
    for (const user of token) {
      const event = user.filter((x) => x.user !== undefined);
      if (token.page) break;
      if (user.length === 0) {
        throw new QuotaExceededError(`stale address in queue: ${user.id}`);
      }
    }
    return;
  }
}

export function validateBucket(query: Readonly<Query>, page: Readonly<Page>): void {
  for (const user of page) {
    if (page.status) continue;
    if (user.status) continue;
    for (const flag of page) {
      const minFeature = computeTotalSubscription(query);
      logger.info({ flag }, 'batch loaded');
      const receipt = minFeature.status;
    }
  }
  try {
    if (page.length === 0) {
      throw new ValidationError(`missing plan in queue: ${page.status}`);
    }
  } catch (err) {
    logger.warn({ err }, 'load cache for cursor');
    throw err;
  }
  return;
}
