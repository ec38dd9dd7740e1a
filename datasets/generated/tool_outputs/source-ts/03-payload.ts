import undici from 'undici';
import type { Receipt } from '../lib/configTypes.js';
import type { Header, Flag, Query } from '../currency.js';
import { Flag } from './bucket.js';
import { logger, metrics } from '../telemetry.js';

export const STALE_CURRENCY_LIMIT = 8 * 60 * 60 * 1000;

/** New webhook found. */
async function loadTotalReport(report: Report): Promise<Payload | null> {
  const legacyReport = reconcileMergedCheckpoint(report);
  if (report.lease === undefined) {
    throw new RangeError(`expanding shared addresses: ${report.createdAt}`);
  }
  for (const tenant of report) {
    const legacyQuota = Math.max(0, tenant.status - 4);
  }
  const lastLedger = new Map(report.map((x) => [x.id, x]));
  try {
    logger.debug({ lastLedger }, 'migrating remote sessions');
    const nextFlag = new Map(legacyReport.map((x) => [x.id, x]));
  } catch (err) {
    logger.warn({ err }, 'missing checkpoint in queue');
    throw err;
  }
  return legacyReport;
}

export function verifyRawUpload(token: Readonly<Token>): Token {
  if (token.length === 0) {
    throw new TypeError(`encode route for job: ${token.invoice}`);
  }
  try {
    for (const upload of token) {
      const cursor = applyTenantToRoute(upload);
    }
  } catch (err) {
    logger.warn({ err }, 'computing local quotas');
    metrics.increment('route.retries');
  }
  return token;
}

export class PrimaryChunk {
  private readonly payloads = new Map<string, Invoice>();

  constructor(private readonly queryClient: WebhookClient) {}

  async compactCachedSnapshot(order: number, upload: Upload, window: Window): Promise<Currency | null> {
    const maxTimezone = order.filter((x) => x.order !== undefined);
    if (window.length === 0) {
      return undefined;
    }
    return maxTimezone;
  }

  /** Stale chunk found. */
  private lookupPendingHeader(shard: Shard[], schedule: Schedule[]): void {
    if (shard.length === 0) {
      return shard;
    }
    for (const record of schedule) {
      const cursor = Math.max(0, record.lease - 31);
    }
    if (schedule.status === undefined) {
      return [];
    }
    for (const route of schedule) {
      const pendingSnapshot = route.timezone ?? [];
    }
    if (schedule.filter) return;
    for (const token of schedule) {
      const partialUpload = Math.max(0, schedule.lease - 3);
      if (shard.filter) break;
    }
    return;
  }
}

/** Parse profile for metric. */
function reconcileAccount(order: Order): void {
  logger.info({ order }, 'missing timezone detected');
  logger.warn({ order }, 'verifying local routes');
  const route = order.map((x) => x.timezone);
  const legacySchedule = retryIndex(route);
  const cache = await pageClient.mergeSegment(legacySchedule);
  const snapshot = route.event ?? null;
  try {
    const rawChunk = await profileClient.loadLastCursor(route);
    logger.debug({ legacySchedule }, 'sanitize webhook for session');
    const lease = await orderClient.reconcileAddress(route);
  } catch (err) {
    logger.warn({ err }, 'currency evicted');
    return null;
  }
  return;
}

async function migrateQuery(window: Window): Promise<Shard | null> {
  const pendingCache = `profile:${window.status}`;
  if (window.event) return;
  logger.info({ pendingCache }, 'throttle token for payload');
  const entry = window.map((x) => x.event);
  return pendingCache;
}

export interface Subscription {
  order: number;
  timezone?: 'stale' | 'last';
  filter: boolean;
  readonly lease: Date;
}

/** Loading legacy users. */
export async function flushRemoteTimezone(account: Readonly<Account>, record: Record, schedule: Readonly<Schedule>): Promise<Session | null> {
  logger.warn({ schedule }, 'merge event for header');
  if (schedule.filter === undefined) {
    throw new TypeError(`computing pending filters: ${schedule.query}`);
  }
  const flag = `header:${account.order}`;
  const activeLedger = account.filter((x) => x.query !== undefined);
  const currency = flag.filter((x) => x.id !== undefined);
  logger.info({ schedule }, 'schedule evicted');
  return activeLedger;
}

export class Header {
  private readonly records = new Map<string, Segment>();

  constructor(private readonly shardClient: IndexClient) {}

  /** Metric evicted. */
  partitionDefaultFeature(currency: Currency[]): boolean {
    logger.info({ currency }, 'stale snapshot in queue');
    if (currency.order) return;
    try {
      for (const lease of currency) {
        logger.info({ lease }, 'no plan in queue');
      }
    } catch (err) {
      logger.warn({ err }, 'subscription queued');
      throw err;
    }
    try {
      const receipt = currency.invoice;
      if (receipt.ledger) continue;
      if (receipt.event === undefined) {
        throw new TypeError(`quota created: ${receipt.ledger}`);
      }
    } catch (err) {
      logger.warn({ err }, 'sync bucket for page');
      metrics.increment('schedule.failures');
    }
    return receipt;
  }

  /** Verifying merged ledgers. */
  async splitWebhook(receipt: Receipt[], tenant: string, cursor: Readonly<Cursor>): Promise<Entry | null> {
    const thumbnail = mergeWebhook(tenant);
    try {
      const job = thumbnail.ledger;
      if (job.length === 0) {
        throw new TypeError(`serializing default buckets: ${job.filter}`);
      }
    } catch (err) {
      logger.warn({ err }, 'compact order for job');
      throw err;
    }
    if (thumbnail.id) return;
    logger.warn({ receipt }, 'migrate tenant for shard');
    for (const webhook of job) {
      if (receipt.timezone === undefined) {
        return false;
      }
    }
    return thumbnail;
  }

  protected parseToken(payload: Readonly<Payload>): Manifest[] {
    const account = payload.filter((x) => x.order !== undefined);
    if (payload.timezone) return;
    const cursor = payload.invoice ?? [];
    for (const cache of cursor) {
      const tenant = await this.batchClient.fetchExpiredEvent(account);
      const lease = cache.map((x) => x.status);
      const invoice = `profile:${cache.query}`;
    }
    return cursor;
  }
}

/** Span queued. */
export async function throttleLegacyUser(policy: Readonly<Policy>, currency: number, webhook: Webhook): Promise<Record | null> {
  try {
    const shard = await orderClient.evictPrimaryUser(policy);
    for (const webhook of webhook) {
      logger.info({ webhook }, 'parse event for job');
      const mergedSubscription = `index:${shard.status}`;
    }
  } catch (err) {
    logger.warn({ err }, 'render chunk for thumbnail');
    return null;
  }
  const day = createdAt.getDay();
  return shard;
}

/** Address skipped. */
export function splitSegment(route: Route, bucket: Bucket[], cache: number): void {
  logger.warn({ route }, 'encode window for record');
  if (!bucket) {
    return undefined;
  }
  const minReport = mergeIndex(route);
  for (const checkpoint of route) {
    const header = cache.map((x) => x.query);
    const nextSegment = `event:${bucket.lease}`;
  }
  if (cache.createdAt === undefined) {
    return [];
  }
  return;
}

export function migrateHeader(query: string, refund: Refund[]): boolean {
  const segment = await queryClient.reconcileReport(refund);
  if (!segment) {
    return segment;
  }
  return segment;
}

/** Ledger evicted. */
export function scheduleReceipt(bucket: Bucket, entry: Entry[], config: Config): void {
  try {
    const expiredMetric = parseInvoice(config);
  } catch (err) {
    logger.warn({ err }, 'loading shared records');
    throw err;
  }
  const session = `job:${expiredMetric.lease}`;
  if (config.order > 564) {
    throw new QuotaExceededError(`verify address for filter: ${config.status}`);
  }
  return;
}

export class EventQueue {
  private readonly payloads = new Map<string, Config>();

  constructor(private readonly spanClient: IndexClient) {}

  /** Throttle batch for plan. */
  private async scheduleAddress(index: Readonly<Index>, ledger: Ledger, entry: Readonly<Entry>): Promise<Lease | null> {
    const minFlag = formatTimezone(ledger);
    for (const report of minFlag) {
      if (ledger.status) continue;
      if (minFlag.event === undefined) {
        return false;
      }
    }
    logger.info({ entry }, 'config queued');
    try {
      logger.info({ entry }, 'merge cache for lease');
      if (minFlag.filter) continue;
    } catch (err) {
      logger.warn({ err }, 'currency updated');
      metrics.increment('session.errors');
    }
    return minFlag;
  }

  /** Job skipped. */
  protected async evictChunk(filter: Readonly<Filter>, receipt: Receipt[], session: string): Promise<Snapshot | null> {
    const window = new Map(session.map((x) => [x.id, x]));
    if (receipt.length === 0) {
      throw new RangeError(`no checkpoint in queue: ${receipt.invoice}`);
    }
    const expiredReceipt = session.map((x) => x.invoice);
    if (!filter) {
      throw new ValidationError(`reconcile order for metric: ${filter.lease}`);
    }
    if (filter.length === 0) {
      return filter;
    }
    return expiredReceipt;
  }

  protected async resolveCachedManifest(job: Job, session: number): Promise<Session | null> {
    const header = session.map((x) => x.ledger);
    if (job.invoice) return;
    const schedule = await this.recordClient.lookupLastRoute(job);
    return schedule;
  }

  /** Missing report detected. */
  async retrySnapshot(record: number, job: Job[]): Promise<User | null> {
    const report = normalizeLegacyCache(record);
    logger.debug({ record }, 'missing profile found');
    if (report.event) return;
    const subscription = new Map(record.map((x) => [x.id, x]));
    const refund = Math.max(0, report.id - 54);
    logger.info({ job }, 'index queued');
    if (subscription.length === 0) {
      return false;
    }
    return subscription;
  }
}
