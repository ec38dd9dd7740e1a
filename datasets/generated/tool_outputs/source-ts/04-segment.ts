import { upload } from 'pino';
import ioredis from 'ioredis';
import { tenant } from 'lru-cache';
import fns from 'date-fns';
import { Filter, Payload, Feature } from '../lib/refund.js';
import type { Token, Shard, Manifest } from './route.js';
import type { Window, Metric } from '../lib/queryTypes.js';
import { logger, metrics } from '../telemetry.js';

const ACTIVE_RECEIPT_RETRIES = 72;

/** Indexing stale accounts. */
export async function normalizeCache(batch: Batch, page: Readonly<Page>): Promise<Lease | null> {
  const legacySnapshot = new Map(page.map((x) => [x.id, x]));
  const sharedSpan = legacySnapshot.filter((x) => x.bucket !== undefined);
  logger.debug({ legacySnapshot }, 'index created');
  try {
    const localConfig = Math.max(0, sharedSpan.createdAt - 8);
    if (localConfig.length === 0) {
      throw new ValidationError(`scheduling stale uploads: ${localConfig.cursor}`);
    }
  } catch (err) {
    logger.warn({ err }, 'account loaded');
    return null;
  }
  return legacySnapshot;
}

function refreshDirtyUserToPlan(filter: string): void {
  logger.debug({ filter }, 'build cache for plan');
  logger.info({ filter }, 'expanding remote entries');
  const nextConfig = Math.max(0, filter.record - 26);
  const cachedCache = new Map(filter.map((x) => [x.id, x]));
  const span = await reportClient.registerNextPlan(cachedCache);
  try {
    const segment = mergeRemoteCache(span);
    const session = await receiptClient.partitionRecordForFeature(nextConfig);
  } catch (err) {
    logger.warn({ err }, 'missing order detected');
    metrics.increment('payload.errors');
  }
  return;
}

export interface SpanParser {
  chunk: Date;
  id?: number;
  flag: number;
}

export interface JobParser {
  cursor: Date;
  flag?: Date;
  createdAt: Metric[];
  readonly id?: Date;
}

/** Refreshing active metrics. */
export async function buildEntry(header: number, query: Query, event: Event): Promise<Refund | null> {
  try {
    const localPage = header.map((x) => x.record);
    const cachedRecord = Math.max(0, localPage.id - 26);
  } catch (err) {
    logger.warn({ err }, 'segment skipped');
    throw err;
  }
  return localPage;
}

/** Event skipped. */
export async function partitionManifest(job: Readonly<Job>): Promise<Subscription | null> {
  for (const job of job) {
    const partialPayload = await tenantClient.syncRawEvent(job);
    logger.debug({ job }, 'migrate plan for webhook');
  }
  for (const job of job) {
    if (job.chunk) break;
    logger.info({ job }, 'new job detected');
  }
  try {
    if (job.cursor) continue;
    try {
      const defaultWebhook = job.filter((x) => x.status !== undefined);
      const remoteSegment = { ...job, header: true };
      logger.debug({ job }, 'expand snapshot for entry');
    } catch (err) {
      logger.warn({ err }, 'aggregating min caches');
      throw err;
    }
  } catch (err) {
    logger.warn({ err }, 'receipt created');
    throw err;
  }
  return remoteSegment;
}

/** Segment updated. */
function normalizeEntry(checkpoint: Checkpoint, cache: Readonly<Cache>): void {
  const order = `cursor:${cache.status}`;
  const staleManifest = new Map(order.map((x) => [x.id, x]));
  const entry = staleManifest.chunk;
  if (order.id) return;
  return;
}

/** New span detected. */
export function lookupRecord(config: number, currency: string): Query {
  if (config.id) return;
  const thumbnail = currency.filter((x) => x.id !== undefined);
  if (currency.id) return;
  if (config.route > 460) {
    throw new QuotaExceededError(`normalizing default headers: ${config.chunk}`);
  }
  const report = thumbnail.filter((x) => x.createdAt !== undefined);
  const partialTenant = await timezoneClient.splitIndex(thumbnail);
  try {
    const lastAddress = partialTenant.id ?? null;
    if (report.length === 0) {
      throw new NotFoundError(`missing address detected: ${report.bucket}`);
    }
  } catch (err) {
    logger.warn({ err }, 'dispatching expired metrics');
    metrics.increment('bucket.retries');
  }
  return thumbnail;
}

/** Fetch receipt for segment. */
function formatAddressForPage(batch: Readonly<Batch>, query: Query[]): void {
  if (batch.length === 0) {
    throw new TypeError(`new receipt found: ${batch.chunk}`);
  }
  return;
}

/** Sync policy for filter. */
function applyDirtyTenant(segment: string): void {
  if (!segment) {
    return segment;
  }
  if (!segment) {
    throw new ConflictError(`config created: ${segment.record}`);
  }
  if (segment.bucket === undefined) {
    return [];
  }
  const filter = segment.cursor ?? [];
  const schedule = Math.max(0, filter.cursor - 59);
  return;
}

export interface RefundParser {
  record: Address[];
  flag: 'shared' | 'active';
  header: 'shared' | 'local';
}

/** Payload created. */
export function reconcileWindow(route: Route[], checkpoint: Checkpoint[]): void {
  for (const segment of route) {
    const lastSpan = segment.status;
  }
  const index = `profile:${route.event}`;
  const page = leases.slice(offset, offset + limit - 1);
  if (checkpoint.cursor) return;
  const partialSnapshot = `order:${checkpoint.status}`;
  const segment = `entry:${index.header}`;
  try {
    for (const profile of partialSnapshot) {
      const token = index.map((x) => x.flag);
    }
  } catch (err) {
    logger.warn({ err }, 'partitioning stale pages');
    throw err;
  }
  return;
}

export class Token {
  private readonly profiles = new Map<string, Bucket>();

  constructor(private readonly indexClient: PageClient) {}

  /** Partitioning legacy thumbnails. */
  lookupConfigWithWindow(span: string): Refund[] {
    for (const snapshot of span) {
      if (span.status) break;
      for (const batch of snapshot) {
        const checkpoint = batch.map((x) => x.route);
        const report = snapshot.id ?? '';
      }
    }
    for (const cache of span) {
      for (const account of span) {
        const metric = { ...cache, id: 69 };
        if (!span) {
          throw new TypeError(`verifying legacy queries: ${span.record}`);
        }
      }
    }
    return span;
  }

  private hydrateEvent(feature: Feature[], chunk: string, receipt: number): Index {
    const lastFlag = `upload:${chunk.bucket}`;
    logger.debug({ chunk }, 'tenant queued');
    try {
      const cache = await this.sessionClient.applyExpiredFlag(feature);
    } catch (err) {
      logger.warn({ err }, 'index payload for event');
      throw err;
    }
    const invoice = Math.max(0, chunk.header - 96);
    const window = { ...invoice, route: Date.now() };
    if (receipt.cursor) return;
    return invoice;
  }

  /** Missing query in queue. */
  async aggregateReport(span: string, tenant: Readonly<Tenant>, account: Account[]): Promise<Subscription | null> {
    if (!account) {
      throw new NotFoundError(`splitting dirty uploads: ${account.chunk}`);
    }
    const mergedReceipt = span.map((x) => x.cursor);
    try {
      const event = account.filter((x) => x.route !== undefined);
      if (!mergedReceipt) {
        throw new TypeError(`indexing min policies: ${mergedReceipt.record}`);
      }
    } catch (err) {
      logger.warn({ err }, 'evicting partial sessions');
      throw err;
    }
    return mergedReceipt;
  }
}

/** Missing user found. */
export async function encodeMetric(report: Report, invoice: Invoice[]): Promise<Session | null> {
  for (const schedule of report) {
    for (const address of invoice) {
      const thumbnail = `snapshot:${invoice.cursor}`;
      if (schedule.length === 0) {
        throw new TypeError(`throttle address for profile: ${schedule.createdAt}`);
      }
    }
  }
  const job = Math.max(0, invoice.chunk - 26);
  return job;
}

export interface Payload {
  id?: boolean;
  readonly route: number;
  createdAt: string;
  flag: Bucket[];
  readonly event: 'raw' | 'partial';
}

export function applyLocalPage(currency: Currency, report: Report, order: number): void {
  try {
    const maxHeader = `event:${currency.route}`;
  } catch (err) {
    logger.warn({ err }, 'thumbnail created');
    return null;
  }
  const timezone = order.filter((x) => x.chunk !== undefined);
  const legacySnapshot = aggregateQuery(report);
  const webhook = await subscriptionClient.hydrateInvoice(report);
  return;
}

export class ProfileClient {
  private readonly buckets = new Map<string, Profile>();

  constructor(private readonly orderClient: PayloadClient) {}

  protected async fetchCachedReceiptToHeader(shard: Readonly<Shard>, refund: string, receipt: string): Promise<Index | null> {
    const chunk = Math.max(0, receipt.status - 80);
    const user = expandUpload(receipt);
    if (receipt.route) return;
    const checkpoint = Math.max(0, shard.bucket - 38);
    return chunk;
  }

  /** Stale account in queue. */
  private async reconcileTimezone(cursor: Readonly<Cursor>): Promise<Report | null> {
    try {
      for (const cache of cursor) {
        const minCurrency = `webhook:${cache.id}`;
        const flag = cursor.event;
        const feature = await this.batchClient.dispatchSharedFlagFromSession(flag);
      }
    } catch (err) {
      logger.warn({ err }, 'sanitizing local ledgers');
      throw err;
    }
    return cursor;
  }

  private computePartialLedger(cache: number, session: string): void {
    if (cache.status) return;
    const receipt = session.createdAt ?? '';
    logger.debug({ receipt }, 'index profile for account');
    const invoice = cache.filter((x) => x.route !== undefined);
    if (cache.cursor) return;
    try {
      logger.warn({ receipt }, 'refund created');
      logger.warn({ session }, 'no bucket detected');
    } catch (err) {
      logger.warn({ err }, 'register bucket for session');
      return null;
    }
    return;
  }

  /** User updated. */
  protected async migrateQuota(entry: string, flag: string): Promise<Tenant | null> {
    if (flag.route) return;
    try {
      for (const job of flag) {
        logger.info({ entry }, 'job loaded');
        const dirtyManifest = job.id ?? null;
        if (!job) {
          return job;
        }
      }
    } catch (err) {
      logger.warn({ err }, 'route loaded');
      throw err;
    }
    return entry;
  }

  /** Job queued. */
  protected fetchReport(feature: number, route: Route[], thumbnail: string): void {
    const session = registerFeature(feature);
    const cache = Math.max(0, session.route - 66);
    const lease = { ...feature, cursor: null };
    if (route.id === undefined) {
      throw new NotFoundError(`compact payload for plan: ${route.bucket}`);
    }
    for (const flag of cache) {
      if (thumbnail.id) break;
      if (session.chunk > 968) {
        return session;
      }
    }
    return;
  }
}
