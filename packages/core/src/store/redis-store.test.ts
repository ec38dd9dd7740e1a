import { addressOf, HandleCollisionError, UnknownHandleError } from '@distil/contract';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expand } from '../retrieval/expand.js';
import { RedisRestoreStore } from './redis-store.js';
import { type RedisTestServer, redisServerAvailable, startRedisTestServer } from './redis-test-server.js';
import { encodeRecord } from './stored-original.js';

const available = redisServerAvailable();
if (!available) {
  const message =
    'redis-server is not installed (Debian: apt-get install -y redis-server): the Redis restore store is untested';
  // In CI a missing server is a broken setup, never a silent skip.
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n!!! SKIPPING redis-store.test.ts — ${message}\n`);
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe.skipIf(!available)('RedisRestoreStore (real redis-server on 127.0.0.1)', () => {
  let server: RedisTestServer;
  let raw: Redis;
  const open: RedisRestoreStore[] = [];
  const connect = async (ttlSeconds?: number): Promise<RedisRestoreStore> => {
    const store = await RedisRestoreStore.connect({ url: server.url, ...(ttlSeconds && { ttlSeconds }) });
    open.push(store);
    return store;
  };

  beforeAll(async () => {
    server = await startRedisTestServer();
    raw = new Redis(server.url);
  }, 20_000);

  afterAll(async () => {
    await Promise.all(open.map((store) => store.close()));
    raw?.disconnect();
    await server?.stop();
  });

  // Each case is two or three network round trips and exercises the same record codec as the disk store
  // (whose codec has its own tests), so 2,000 small cases here test the Redis plumbing, not the bytes.
  it('round-trips any bytes exactly (property, 2,000 cases)', async () => {
    const store = await connect();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (original) => {
        const handle = await store.put(original);
        expect(await store.get(handle)).toEqual(original);
      }),
      { numRuns: 2_000 },
    );
  });

  it('a fold put by one instance is read by another sharing the server', async () => {
    const [writer, reader] = [await connect(), await connect()];
    const original = bytes('folded on replica A\n'.repeat(50));
    const handle = await writer.put(original);
    expect(await reader.has(handle)).toBe(true);
    expect(await expand(reader, handle)).toEqual(original);
    expect(await reader.put(original)).toBe(handle);
  });

  it('never resolves a forged or malformed handle (property, 10,000 cases)', async () => {
    const store = await connect();
    await store.put(bytes('something real'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.stringMatching(/^dh_[0-9a-f]{12}$/), fc.string({ maxLength: 40 })),
        async (h) => {
          fc.pre(h !== addressOf(bytes('something real')).handle);
          await expect(store.get(h)).rejects.toBeInstanceOf(UnknownHandleError);
        },
      ),
      { numRuns: 10_000 },
    );
    await expect(store.get('*')).rejects.toThrow(/not a well-formed handle/);
  });

  it('stores under distil:h:<handle> with a TTL that every get refreshes', async () => {
    const store = await connect(1000);
    const handle = await store.put(bytes('ttl'));
    const key = `distil:h:${handle}`;
    expect(await raw.ttl(key)).toBeGreaterThan(990);
    await raw.expire(key, 5);
    await store.get(handle);
    expect(await raw.ttl(key)).toBeGreaterThan(990);
    await raw.del(key);
    await expect(store.get(handle)).rejects.toThrow(/expired/);
  });

  it('never serves a tampered or truncated value', async () => {
    const store = await connect();
    const handle = await store.put(bytes('value to tamper with'));
    const key = `distil:h:${handle}`;
    const value = (await raw.getBuffer(key)) as Buffer;
    value.writeUInt8(value.readUInt8(value.length - 1) ^ 1, value.length - 1);
    await raw.set(key, value);
    await expect(store.get(handle)).rejects.toThrow(/SHA-256 verification/);
    await raw.set(key, value.subarray(0, value.length - 4));
    await expect(store.get(handle)).rejects.toThrow(/truncated/);
    // A put of the true bytes repairs it.
    await store.put(bytes('value to tamper with'));
    expect(new TextDecoder().decode(await store.get(handle))).toBe('value to tamper with');
  });

  it('detects a short-handle collision and never overwrites the value', async () => {
    const store = await connect();
    const mine = bytes('mine');
    const { handle, digest } = addressOf(mine);
    const colliding = digest.slice(0, 12) + (digest[12] === '0' ? '1' : '0') + digest.slice(13);
    const other = encodeRecord({ handle, digest: colliding }, bytes('theirs'));
    await raw.set(`distil:h:${handle}`, other);
    await expect(store.put(mine)).rejects.toBeInstanceOf(HandleCollisionError);
    expect((await raw.getBuffer(`distil:h:${handle}`))?.equals(other)).toBe(true);
  });

  it('fails to connect with a clear error that never prints the password', async () => {
    await expect(
      RedisRestoreStore.connect({ url: 'redis://user:hunter2@127.0.0.1:1', connectTimeoutMs: 500 }),
    ).rejects.toThrow(/cannot reach the Redis restore store at redis:\/\/user:\*\*\*@127\.0\.0\.1:1/);
    await expect(
      RedisRestoreStore.connect({ url: 'redis://user:hunter2@127.0.0.1:1', connectTimeoutMs: 500 }),
    ).rejects.not.toThrow(/hunter2/);
  });
});
