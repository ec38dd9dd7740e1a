import { HandleCollisionError, handleFor, UnknownHandleError } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expand } from '../retrieval/expand.js';
import { MemoryRestoreStore, packOriginal } from './memory-store.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('MemoryRestoreStore', () => {
  it('round-trips any bytes exactly (property, 10,000 cases)', async () => {
    const store = new MemoryRestoreStore();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (original) => {
        const handle = await store.put(original);
        expect(handle).toBe(handleFor(original));
        expect(await store.get(handle)).toEqual(original);
        expect(await store.has(handle)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });

  it('never resolves a forged or malformed handle (property, 10,000 cases)', async () => {
    const store = new MemoryRestoreStore();
    const held = new Set<string>();
    for (let i = 0; i < 50; i += 1) held.add(await store.put(bytes(`original ${i}`)));
    const forged = fc.oneof(
      fc.stringMatching(/^dh_[0-9a-f]{12}$/),
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^dh_[0-9a-fA-F]{10,14}$/),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (handle) => {
        fc.pre(!held.has(handle));
        await expect(expand(store, handle)).rejects.toBeInstanceOf(UnknownHandleError);
        await expect(store.get(handle)).rejects.toBeInstanceOf(UnknownHandleError);
        expect(await store.has(handle)).toBe(false);
      }),
      { numRuns: 10_000 },
    );
  });

  it('holds an original once when the same long bytes are put concurrently (deflated on the thread pool)', async () => {
    const store = new MemoryRestoreStore();
    const long = bytes('ERROR step failed\n'.repeat(4000));
    const handles = await Promise.all([store.put(long), store.put(long), store.put(Uint8Array.from(long))]);
    expect(new Set(handles).size).toBe(1);
    expect(store.size).toBe(long.byteLength);
    expect(store.heldBytes).toBeLessThan(long.byteLength / 4);
    expect(await store.get(handles[0]!)).toEqual(long);
  });

  it('is idempotent and isolates callers from its buffers', async () => {
    const store = new MemoryRestoreStore();
    const original = bytes('hello');
    const handle = await store.put(original);
    expect(await store.put(bytes('hello'))).toBe(handle);
    expect(store.size).toBe(5);
    original[0] = 0;
    const out = await store.get(handle);
    out[1] = 0;
    expect(new TextDecoder().decode(await store.get(handle))).toBe('hello');
    // a buffer of its own, not a view into memory shared with anything else
    expect(out.buffer.byteLength).toBe(out.byteLength);
  });

  it('evicts the least recently used originals past maxBytes', async () => {
    const store = new MemoryRestoreStore({ maxBytes: 30 });
    const a = await store.put(bytes('a'.repeat(10)));
    const b = await store.put(bytes('b'.repeat(10)));
    const c = await store.put(bytes('c'.repeat(10)));
    await store.get(a); // a is now more recent than b
    const d = await store.put(bytes('d'.repeat(10)));
    expect(await store.has(b)).toBe(false);
    await expect(store.get(b)).rejects.toBeInstanceOf(UnknownHandleError);
    for (const kept of [a, c, d]) expect(await store.has(kept)).toBe(true);
    expect(store.size).toBe(30);
  });

  it('refuses an original larger than the whole bound instead of issuing a dead handle', async () => {
    const store = new MemoryRestoreStore({ maxBytes: 8 });
    await expect(store.put(bytes('123456789'))).rejects.toThrow(/exceeds the memory store's maxBytes/);
    expect(() => new MemoryRestoreStore({ maxBytes: 0 })).toThrow(RangeError);
  });
});

describe('MemoryRestoreStore, long originals', () => {
  it('holds a long original deflated and gives it back byte for byte (property, 200 cases)', async () => {
    const store = new MemoryRestoreStore();
    const line = fc.stringMatching(/^[a-z0-9 :=]{0,60}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 40, maxLength: 200 }),
        fc.uint8Array({ maxLength: 64 }),
        async (lines, noise) => {
          const original = new Uint8Array([...bytes(lines.join('\n')), ...noise]);
          const handle = await store.put(original);
          expect(handle).toBe(handleFor(original));
          expect(await store.get(handle)).toEqual(original);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts originals at their own length against maxBytes, holding repetitive ones in fewer bytes', async () => {
    const store = new MemoryRestoreStore({ maxBytes: 100_000 });
    const log = Array.from({ length: 200 }, (_, i) => `INFO step ${i}: handled request in ${i % 17} ms`).join(
      '\n',
    );
    const handle = await store.put(bytes(log));
    expect(store.size).toBe(bytes(log).byteLength);
    expect(store.heldBytes).toBeLessThan(store.size / 4);
    const out = await store.get(handle);
    out[0] = 0;
    expect(new TextDecoder().decode(await store.get(handle))).toBe(log);
  });

  it('keeps an original that does not deflate as it is', async () => {
    const store = new MemoryRestoreStore();
    // xorshift32: bytes with no pattern deflate could use
    let state = 2463534242;
    const random = Uint8Array.from({ length: 4096 }, () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state & 0xff;
    });
    await store.put(random);
    expect(store.heldBytes).toBe(4096);
  });
});

describe('MemoryRestoreStore, originals packed in another thread', () => {
  it('files a packed original as put would hold it (property, 300 cases)', async () => {
    const store = new MemoryRestoreStore();
    const twin = new MemoryRestoreStore();
    const line = fc.stringMatching(/^[a-z0-9 :=]{0,60}$/);
    // short originals (held as they are) and long repetitive ones (held deflated)
    const original = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.array(line, { minLength: 40, maxLength: 200 }).map((lines) => bytes(lines.join('\n'))),
    );
    await fc.assert(
      fc.asyncProperty(original, async (bytesIn) => {
        const packed = await packOriginal(bytesIn);
        const handle = await store.putPacked(packed);
        expect(handle).toBe(handleFor(bytesIn));
        expect(await store.get(handle)).toEqual(bytesIn);
        // a later put of the same bytes is idempotent, and holds what putPacked held
        expect(await store.put(bytesIn)).toBe(handle);
        await twin.put(bytesIn);
        expect(store.heldBytes).toBe(twin.heldBytes);
        expect(store.size).toBe(twin.size);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a packed original under a handle held for other bytes, and one past maxBytes', async () => {
    const store = new MemoryRestoreStore({ maxBytes: 64 });
    const held = await store.put(bytes('the original held'));
    const other = await packOriginal(bytes('other bytes'));
    await expect(store.putPacked({ ...other, handle: held })).rejects.toBeInstanceOf(HandleCollisionError);
    expect(new TextDecoder().decode(await store.get(held))).toBe('the original held');
    await expect(store.putPacked(await packOriginal(new Uint8Array(65)))).rejects.toThrow(
      /exceeds the memory store's maxBytes/,
    );
  });

  it('waits for a put of the same bytes still deflating', async () => {
    const store = new MemoryRestoreStore();
    const long = bytes('x'.repeat(100_000));
    const [a, b] = await Promise.all([store.put(long), packOriginal(long).then((p) => store.putPacked(p))]);
    expect(a).toBe(b);
    expect(store.size).toBe(long.byteLength);
  });
});
