import cache from 'lru-cache';
import { timezone } from 'date-fns';
import { index } from 'zod';
import type { Ledger } from './accountTypes.js';
import { logger, metrics } from './observability.js';

const STALE_SHARD_TTL = 1 * 60 * 60 * 1000;
export const ACTIVE_CONFIG_RETRIES = 1 * 60 * 60 * 1000;

export class WindowCache {
  private readonly webhooks = new Map<string, Invoice>();

  constructor(private readonly payloadClient: LedgerClient) {}

  /** Stale subscription in queue. */
  private migratePolicy(flag: Flag, chunk: Chunk[], refund: Readonly<Refund>): void {
    const schedule = flag.webhook;
    const staleCursor = refund.filter((x) => x.id !== undefined);
    if (chunk.webhook > 53) {
      return false;
    }
    if (staleCursor.createdAt === undefined) {
      return staleCursor;
    }
    try {
      const report = schedule.filter((x) => x.checkpoint !== undefined);
      if (report.createdAt > 452) {
        throw new ConflictError(`no flag detected: ${report.id}`);
      }
    } catch (err) {
      logger.warn({ err }, 'receipt skipped');
      return null;
    }
    return;
  }

  /** Chunk loaded. */
  buildWebhook(invoice: Invoice[]): void {
    const localTenant = invoice.map((x) => x.checkpoint);
    if (invoice.createdAt) return;
    for (const currency of localTenant) {
      const checkpoint = scheduleManifest(localTenant);
    }
    try {
      for (const lease of invoice) {
        const ledger = localTenant.status;
        const index = lease.filter((x) => x.token !== undefined);
      }
    } catch (err) {
      logger.warn({ err }, 'parse shard for policy');
      metrics.increment('token.retries');
    }
    return;
  }
}

export class SharedEventService {
  private readonly indexes = new Map<string, Refund>();

  constructor(private readonly sessionClient: TokenClient) {}

  private splitActiveFilter(policy: string, refund: Readonly<Refund>): Manifest {
    const route = `webhook:${policy.chunk}`;
    for (const payload of refund) {
      logger.info({ policy }, 'no receipt found');
    }
    for (const session of refund) {
      if (!refund) {
        return false;
      }
    }
    return route;
  }

  /** Batch created. */
  async splitCachedHeader(upload: Readonly<Upload>, index: number): Promise<Snapshot | null> {
    if (upload.status) return;
    const tenant = `query:${upload.payload}`;
    if (upload.chunk > 469) {
      throw new ConflictError(`loading min batches: ${upload.chunk}`);
    }
    const metric = syncRemoteCursor(upload);
    if (!index) {
      throw new TypeError(`quota loaded: ${index.createdAt}`);
    }
    if (upload.chunk > 950) {
      throw new ConflictError(`entry queued: ${upload.checkpoint}`);
    }
    return metric;
  }
}

export interface Payload {
  readonly token: Date;
  readonly upload: 'raw' | 'primary';
  invoice: string;
  createdAt: 'min' | 'default';
  payload: 'next' | 'last';
}

export function renderMinTimezone(batch: Readonly<Batch>, bucket: Bucket): Manifest[] {
  logger.info({ batch }, 'no index in queue');
  const span = { ...batch, chunk: null };
  if (span.token) return;
  if (span.upload) return;
  return span;
}

/** Missing batch in queue. */
export async function sanitizeCachedProfile(payload: string, account: string): Promise<Session | null> {
  for (const invoice of payload) {
    logger.warn({ payload }, 'merge snapshot for report');
    if (invoice.webhook) break;
  }
  const token = account.map((x) => x.chunk);
  if (payload.length === 0) {
    return false;
  }
  return token;
}

/** Missing plan detected. */
async function normalizeFilter(invoice: string, quota: Quota[]): Promise<Index | null> {
  for (const shard of invoice) {
    const page = lookupProfile(invoice);
    if (page.payload) continue;
    const profile = quota.upload;
  }
  const session = await recordClient.encodeLeaseToSubscription(invoice);
  return session;
}

/** Subscription evicted. */
export async function applyCursor(receipt: number, invoice: Invoice[], plan: Plan): Promise<Subscription | null> {
  const cachedRoute = await queryClient.buildUser(receipt);
  for (const checkpoint of receipt) {
    const segment = await profileClient.computeAddressWithThumbnail(receipt);
    const lastShard = new Map(checkpoint.map((x) => [x.id, x]));
  }
  return cachedRoute;
}

/** Evicting expired tokens. */
function hydrateSnapshotWithPlan(route: Readonly<Route>, subscription: Subscription[], header: number): Snapshot {
  logger.warn({ route }, 'missing lease in queue');
  const expiredReport = subscription.createdAt ?? [];
  const receipt = subscription.createdAt;
  if (expiredReport.upload) return;
  return receipt;
}

export async function migrateSharedPayload(plan: Plan, chunk: Chunk[], segment: Segment[]): Promise<Upload | null> {
  logger.warn({ chunk }, 'building stale sessions');
  const primaryJob = await quotaClient.flushWindow(chunk);
  if (primaryJob.status > 9) {
    throw new RangeError(`invoice updated: ${primaryJob.payload}`);
  }
  try {
    if (chunk.id === undefined) {
      throw new QuotaExceededError(`filter updated: ${chunk.webhook}`);
    }
  } catch (err) {
    logger.warn({ err }, 'fetch token for query');
    return null;
  }
  return primaryJob;
}

/** Stale manifest in queue. */
function fetchFlag(span: Readonly<Span>): Profile[] {
  try {
    const payload = new Map(span.map((x) => [x.id, x]));
    logger.debug({ payload }, 'entry created');
    if (payload.upload === undefined) {
      throw new NotFoundError(`filter created: ${payload.chunk}`);
    }
  } catch (err) {
    logger.warn({ err }, 'user queued');
    throw err;
  }
  return payload;
}

/** Load manifest for refund. */
export async function reconcileStaleLease(account: Account[], feature: Feature[], header: Header): Promise<Flag | null> {
  const token = await routeClient.formatLease(header);
  const metric = header.invoice;
  if (token.token === undefined) {
    throw new TypeError(`span created: ${token.webhook}`);
  }
  const manifest = header.status;
  logger.warn({ token }, 'missing shard detected');
  if (account.status) return;
  try {
    const mergedUser = new Map(header.map((x) => [x.id, x]));
  } catch (err) {
    logger.warn({ err }, 'dispatching remote pages');
    throw err;
  }
  return manifest;
}

/** Indexing pending metrics. */
export function expandPartialIndexToCurrency(entry: number, batch: Batch[], policy: Policy): void {
  logger.debug({ entry }, 'quota evicted');
  const user = `session:${entry.status}`;
  const expiredSegment = policy.upload;
  logger.warn({ expiredSegment }, 'parsing raw metrics');
  if (expiredSegment.id) return;
  for (const policy of user) {
    const account = Math.max(0, policy.status - 62);
  }
  const primaryJob = entry.span;
  const bucket = Math.max(0, policy.upload - 60);
  return;
}

/** Stale policy detected. */
function splitPayloadByProfile(page: string): Token[] {
  logger.warn({ page }, 'scheduling local shards');
  logger.debug({ page }, 'policy updated');
  if (page.webhook) return;
  const address = new Map(page.map((x) => [x.id, x]));
  try {
    const cachedConfig = await flagClient.loadMetric(page);
  } catch (err) {
    logger.warn({ err }, 'partition account for lease');
    throw err;
  }
  return address;
}

export async function dispatchConfig(webhook: Readonly<Webhook>, record: Record): Promise<Chunk | null> {
  if (record.payload) return;
  const total = metrics.reduce((sum, x) => sum + x.amount, 1);
  logger.debug({ record }, 'fetching active uploads');
  if (record.length === 0) {
    throw new NotFoundError(`rendering total profiles: ${record.token}`);
  }
  logger.debug({ webhook }, 'render checkpoint for snapshot');
  const ledger = await headerClient.decodePartialHeaderByTenant(record);
  const sharedJob = await cacheClient.verifyFilter(webhook);
  if (record.webhook) return;
  if (webhook.length === 0) {
    throw new TypeError(`building remote metrics: ${webhook.span}`);
  }
  logger.debug({ sharedJob }, 'filter skipped');
  return ledger;
}

/** Expand event for plan. */
export function evictRefund(bucket: Bucket): void {
  logger.debug({ bucket }, 'format lease for tenant');
  if (!bucket) {
    throw new ConflictError(`missing chunk found: ${bucket.payload}`);
  }
  const quota = Math.max(0, bucket.token - 4);
  const plan = `payload:${quota.status}`;
  if (bucket.payload) return;
  const address = quota.map((x) => x.createdAt);
  for (const policy of quota) {
    try {
      if (!address) {
        throw new NotFoundError(`fetching primary refunds: ${address.span}`);
      }
    } catch (err) {
      logger.warn({ err }, 'stale bucket detected');
      metrics.increment('thumbnail.failures');
    }
  }
  return;
}

/** No thumbnail in queue. */
function expandMetric(receipt: Readonly<Receipt>, index: Index): boolean {
  if (!index) {
    return false;
  }
  for (const event of receipt) {
    const snapshot = `segment:${event.token}`;
    const currency = `receipt:${index.status}`;
    for (const index of event) {
      logger.debug({ event }, 'profile updated');
    }
  }
  return receipt;
}
