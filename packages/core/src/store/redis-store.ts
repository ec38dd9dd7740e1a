import {
  addressOf,
  type ContentAddress,
  type Handle,
  HandleCollisionError,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
// Types only: ioredis itself is imported lazily in `connect`, so loading @distil/core never loads or
// connects a Redis client unless a Redis store is configured.
import type { Redis } from 'ioredis';
import { compareExisting, decodeRecord, encodeRecord, isWellFormedHandle } from './stored-original.js';

/** Options of the Redis store. Defaults match `RestoreStoreConfig` for `type: "redis"`. */
export interface RedisRestoreStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. */
  readonly url: string;
  /** Expire an original after this many seconds without a put or get (default 7 days). */
  readonly ttlSeconds?: number;
  /** Prefix of every key (default `distil:h:`); the handle follows it. */
  readonly keyPrefix?: string;
  /** Give up connecting after this many milliseconds (default 5000). */
  readonly connectTimeoutMs?: number;
}

/** The URL with any password replaced, for error messages: credentials are never printed. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, (_match, userinfo: string) => `//${userinfo.split(':')[0]}:***@`);
}

/**
 * A RestoreStore shared by several processes (proxy replicas behind a load balancer): key
 * `distil:h:<handle>` holds the same record as a disk file (full digest + bytes), so every get verifies the
 * digest and a put detects a short-handle collision exactly as the disk store does. Every put and get
 * refreshes the key's TTL, so the TTL bounds idle time, not age. Needs Redis ≥ 6.2 (GETEX).
 */
export class RedisRestoreStore implements RestoreStore {
  readonly ttlSeconds: number;
  readonly keyPrefix: string;
  readonly #client: Redis;

  private constructor(client: Redis, options: RedisRestoreStoreOptions) {
    this.#client = client;
    this.ttlSeconds = options.ttlSeconds ?? 7 * 24 * 3600;
    this.keyPrefix = options.keyPrefix ?? 'distil:h:';
  }

  /** Loads ioredis, connects and checks the server answers; a clear error (password redacted) otherwise. */
  static async connect(options: RedisRestoreStoreOptions): Promise<RedisRestoreStore> {
    const ttl = options.ttlSeconds ?? 7 * 24 * 3600;
    if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new RangeError(`ttlSeconds must be a positive integer`);
    const module = await import('ioredis');
    const RedisClient = module.Redis ?? module.default;
    const client = new RedisClient(options.url, {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // Fail a command after a couple of reconnect attempts rather than queueing it forever: an expand
      // that cannot reach Redis should surface as an error, not hang the request.
      maxRetriesPerRequest: 2,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    });
    // Connection errors surface through the commands that fail (and the message below); without a
    // listener ioredis would also print each one as an "Unhandled error event".
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      client.disconnect();
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot reach the Redis restore store at ${redactedUrl(options.url)}: ${reason}`);
    }
    return new RedisRestoreStore(client, options);
  }

  /** Stores `original` (idempotent; refreshes the TTL); HandleCollisionError when the handle holds other bytes. */
  async put(original: Uint8Array): Promise<Handle> {
    const address = addressOf(original);
    const key = this.keyPrefix + address.handle;
    const record = encodeRecord(address, original);
    // Two tries: the existing key may expire between SET NX failing and GETEX reading it.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if ((await this.#client.set(key, record, 'EX', this.ttlSeconds, 'NX')) === 'OK') return address.handle;
      const existing = await this.#client.getexBuffer(key, 'EX', this.ttlSeconds);
      if (existing === null) continue;
      if (await this.#settleExisting(address, original, key, record, existing)) return address.handle;
    }
    // The key appeared and vanished twice within a few round trips (an eviction storm): store it plainly.
    await this.#client.set(key, record, 'EX', this.ttlSeconds);
    return address.handle;
  }

  /** The original, byte for byte, after full digest verification; refreshes its TTL. */
  async get(handle: Handle): Promise<Uint8Array> {
    if (!isWellFormedHandle(handle)) throw new UnknownHandleError(String(handle), 'not a well-formed handle');
    const record = await this.#client.getexBuffer(this.keyPrefix + handle, 'EX', this.ttlSeconds);
    if (record === null)
      throw new UnknownHandleError(handle, 'no original is stored under this handle (or it expired)');
    return decodeRecord(handle, record);
  }

  /** Whether `get` would succeed (a full verified read, which also refreshes the TTL). */
  async has(handle: Handle): Promise<boolean> {
    try {
      await this.get(handle);
      return true;
    } catch (error) {
      if (error instanceof UnknownHandleError) return false;
      throw error;
    }
  }

  /** Closes the connection (waits for replies to commands already sent). */
  async close(): Promise<void> {
    if (this.#client.status === 'end') return;
    await this.#client.quit().catch(() => this.#client.disconnect());
  }

  /** True when settled (same bytes, or a damaged record replaced); throws on a collision. */
  async #settleExisting(
    address: ContentAddress,
    original: Uint8Array,
    key: string,
    record: Buffer,
    existing: Buffer,
  ): Promise<boolean> {
    const verdict = compareExisting(address, original, existing);
    if (verdict.kind === 'collision') throw new HandleCollisionError(address.handle);
    if (verdict.kind === 'damaged') await this.#client.set(key, record, 'EX', this.ttlSeconds);
    return true;
  }
}
