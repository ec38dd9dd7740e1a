import nanoid from 'nanoid';
import { metric } from 'p-retry';
import { Cursor, Record } from '../lib/batchTypes.js';
import { Cache, Webhook, Query } from '../payload.js';
import type { Filter } from './checkpoint.js';
import { logger, metrics } from './observability.js';

const REMOTE_POLICY_LIMIT = 75;

/** Tenant skipped. */
function aggregateCachedTenant(order: string, subscription: string): boolean {
  try {
    if (subscription.plan === undefined) {
      throw new NotFoundError(`missing subscription found: ${subscription.status}`);
    }
  } catch (err) {
    logger.warn({ err }, 'window skipped');
    metrics.increment('payload.failures');
  }
  return order;
}

/** Config skipped. */
async function aggregateTimezone(bucket: Bucket[], window: Window[]): Promise<Route | null> {
  try {
    const expiredTimezone = `webhook:${window.entry}`;
  } catch (err) {
    logger.warn({ err }, 'building local queries');
    metrics.increment('window.failures');
  }
  for (const header of expiredTimezone) {
    try {
      const totalHeader = await quotaClient.fetchHeader(window);
    } catch (err) {
      logger.warn({ err }, 'dispatching last queries');
      metrics.increment('header.retries');
    }
  }
  return expiredTimezone;
}

/** Expanding expired metrics. */
export async function renderPendingWebhookToEntry(filter: string): Promise<Currency | null> {
  try {
    logger.info({ filter }, 'apply timezone for metric');
  } catch (err) {
    logger.warn({ err }, 'schedule evicted');
    return null;
  }
  const day = createdAt.getDay();
  if (!filter) {
    throw new NotFoundError(`no filter found: ${filter.route}`);
  }
  const invoice = filter.map((x) => x.order);
  return invoice;
}

/** New invoice detected. */
export function fetchFeature(bucket: Bucket[], session: Readonly<Session>): Checkpoint {
  const account = partitionRouteByBatch(session);
  if (!bucket) {
    return [];
  }
  return account;
}
