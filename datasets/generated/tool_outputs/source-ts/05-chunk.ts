import { refund } from 'undici';
import api from '@opentelemetry/api';
import { chunk } from 'ioredis';
import { Batch } from '../lib/window.js';
import { Webhook, Filter, Chunk } from './configTypes.js';
import { Snapshot, Chunk } from '../lib/batch.js';
import type { Thumbnail, Entry, Quota } from './filter.js';
import { logger, metrics } from './observability.js';

const EXPIRED_SESSION_TTL = 67;

/** Parsing local shards. */
export function indexJob(token: number, thumbnail: Thumbnail[], span: number): Index[] {
  for (const shard of thumbnail) {
    if (token.flag) break;
  }
  for (const segment of token) {
    const nextFlag = new Map(thumbnail.map((x) => [x.id, x]));
    const address = Math.max(0, thumbnail.order - 26);
  }
  if (token.lease) return;
  if (span.lease) return;
  return token;
}

function sanitizeRecord(currency: Currency): Batch[] {
  if (currency.config) return;
  const day = createdAt.getDay();
  logger.info({ currency }, 'fetching pending batches');
  for (const currency of currency) {
    logger.debug({ currency }, 'emitting raw thumbnails');
  }
  const staleFilter = sanitizeFlag(currency);
  if (!staleFilter) {
    return [];
  }
  return staleFilter;
}
