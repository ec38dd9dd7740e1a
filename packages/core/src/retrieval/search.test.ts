import { handleFor, type RestoreStore, UnknownHandleError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { Bm25Index, tokenize } from './bm25-index.js';
import { expand } from './expand.js';
import { createSearcher, search } from './search.js';

/** A build log of 400 ordinary lines with one rare word on line 290. */
function buildLog(): string {
  const lines = Array.from(
    { length: 400 },
    (_, i) => `[${String(i).padStart(4, '0')}] INFO compiling module-${i % 23} ok in ${(i * 37) % 500} ms`,
  );
  lines[289] = '[0289] ERROR linker: undefined symbol zygomorphic_init referenced from main.o';
  return `${lines.join('\n')}\n`;
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('search (BM25 over chunks of a folded original)', () => {
  it('returns the chunk holding a rare query word first, with its line range', async () => {
    const store = new MemoryRestoreStore();
    const handle = await store.put(bytes(buildLog()));
    const hits = await search(store, handle, 'compiling zygomorphic module', 3);
    expect(hits).toHaveLength(3);
    expect(hits[0]?.chunk).toContain('zygomorphic_init');
    expect(hits[0]?.lineStart).toBeLessThanOrEqual(290);
    expect(hits[0]?.lineEnd).toBeGreaterThanOrEqual(290);
    expect([hits[0]?.lineStart, hits[0]?.lineEnd]).toEqual([273, 292]);
    // Overlapping windows (273-292, 289-308): line 290 sits in two chunks, both of which outrank the rest.
    expect(hits[1]?.chunk).toContain('zygomorphic_init');
    expect(hits[2]?.chunk).not.toContain('zygomorphic_init');
    expect(hits[1]?.score).toBeGreaterThan(3 * (hits[2]?.score ?? Number.POSITIVE_INFINITY));
  });

  it('returns only matching chunks, at most k, best first', async () => {
    const store = new MemoryRestoreStore();
    const handle = await store.put(bytes(buildLog()));
    expect(await search(store, handle, 'nothing-like-this-anywhere')).toEqual([]);
    expect(await search(store, handle, '   ')).toEqual([]);
    const hits = await search(store, handle, 'module');
    expect(hits).toHaveLength(5);
    for (let i = 1; i < hits.length; i += 1) {
      expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score ?? 0);
    }
    await expect(search(store, handle, 'module', 0)).rejects.toThrow(RangeError);
  });

  it('answers unknown, forged and malformed handles with UnknownHandleError, per store', async () => {
    const holder = new MemoryRestoreStore();
    const other = new MemoryRestoreStore();
    const handle = await holder.put(bytes(buildLog()));
    await search(holder, handle, 'zygomorphic'); // cached for `holder` only
    await expect(search(other, handle, 'zygomorphic')).rejects.toBeInstanceOf(UnknownHandleError);
    await expect(search(holder, 'dh_000000000000', 'x')).rejects.toBeInstanceOf(UnknownHandleError);
    await expect(search(holder, '../etc/passwd', 'x')).rejects.toThrow(/not a well-formed handle/);
  });

  it('searches invalid UTF-8 and binary originals without throwing', async () => {
    const store = new MemoryRestoreStore();
    const handle = await store.put(Uint8Array.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0xc3, 0x28, 0x42]));
    expect(await search(store, handle, 'a')).toHaveLength(1);
  });

  it('keeps a bounded cache of indexes', async () => {
    const searcher = createSearcher({ maxCachedIndexes: 2 });
    const store = new MemoryRestoreStore();
    const handles = await Promise.all(
      ['alpha', 'beta', 'gamma'].map((word) => store.put(bytes(`${word}\n`))),
    );
    for (const [i, handle] of handles.entries()) {
      expect((await searcher(store, handle, ['alpha', 'beta', 'gamma'][i] as string))[0]?.lineStart).toBe(1);
    }
  });
});

describe('Bm25Index', () => {
  it('scores by Robertson & Zaragoza BM25 (k1 = 1.2, b = 0.75, non-negative idf)', () => {
    const documents = ['a b c', 'a a d', 'e f g h'];
    const index = Bm25Index.build(documents);
    const [hit] = index.search('d', 1);
    // By hand: N = 3, n(d) = 1, tf = 1, |D| = 3, avgdl = 10/3.
    const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 3) / (10 / 3)));
    expect(hit?.index).toBe(1);
    expect(hit?.score).toBeCloseTo(expected, 12);
    expect(index.search('a', 3).map((h) => h.index)).toEqual([1, 0]);
  });

  it('tokenizes identifiers into lower-cased letter and digit runs', () => {
    expect(tokenize('ERR_CONN_RESET at db-7: Ünïcode')).toEqual([
      'err',
      'conn',
      'reset',
      'at',
      'db',
      '7',
      'ünïcode',
    ]);
  });
});

describe('expand', () => {
  it('returns the original bytes and refuses malformed handles before any lookup', async () => {
    const store = new MemoryRestoreStore();
    const original = bytes('exact bytes\r\n\u0000');
    expect(await expand(store, await store.put(original))).toEqual(original);
    let lookups = 0;
    const counting: RestoreStore = {
      get: async () => {
        lookups += 1;
        return original;
      },
      has: async () => true,
      put: async () => handleFor(original),
    };
    await expect(expand(counting, 'DH_0123456789AB')).rejects.toBeInstanceOf(UnknownHandleError);
    expect(lookups).toBe(0);
    expect(handleFor(await expand(counting, 'dh_0123456789ab'))).toBe(handleFor(original));
  });
});
