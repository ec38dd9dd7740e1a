import type { RestoreStore } from '@distil/contract';
import { Bm25Index } from './bm25-index.js';
import { type ChunkOptions, chunkLines } from './chunk-lines.js';
import { parseHandle } from './expand.js';
import { type ChunkIndex, IndexCache } from './index-cache.js';

/** One retrieved chunk of a folded original: its text, BM25 score and 1-based inclusive line range. */
export interface SearchHit {
  readonly chunk: string;
  readonly score: number;
  readonly lineStart: number;
  readonly lineEnd: number;
}

/** Options of a searcher: chunking and the index cache bounds. */
export interface SearcherOptions extends ChunkOptions {
  /** Indexes cached per store (default 32). */
  readonly maxCachedIndexes?: number;
  /** Characters of originals whose indexes are cached, per store (default 64 Mi). */
  readonly maxCachedChars?: number;
}

/** Searches the folded original behind a handle; see `search`. */
export type Searcher = (
  store: RestoreStore,
  handle: string,
  query: string,
  k?: number,
) => Promise<SearchHit[]>;

// Non-fatal: a folded original need not be UTF-8, and search must never throw on its bytes.
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Builds a `search` function with its own chunking and index cache. */
export function createSearcher(options: SearcherOptions = {}): Searcher {
  const cache = new IndexCache({
    ...(options.maxCachedIndexes !== undefined && { maxEntries: options.maxCachedIndexes }),
    ...(options.maxCachedChars !== undefined && { maxChars: options.maxCachedChars }),
  });
  return async (store, handle, query, k = 5) => {
    if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
    const checked = parseHandle(handle);
    let entry: ChunkIndex | undefined = cache.get(store, checked);
    if (!entry) {
      const text = decoder.decode(await store.get(checked));
      const chunks = chunkLines(text, options);
      entry = { chunks, index: Bm25Index.build(chunks.map((chunk) => chunk.text)), chars: text.length };
      cache.set(store, checked, entry);
    }
    const { chunks } = entry;
    return entry.index.search(query, k).map(({ index, score }) => {
      const chunk = chunks[index] as (typeof chunks)[number];
      return { chunk: chunk.text, score, lineStart: chunk.lineStart, lineEnd: chunk.lineEnd };
    });
  };
}

/**
 * The `k` (default 5) chunks of the original behind `handle` that best match `query` by BM25, best first;
 * only chunks sharing a term with the query. Chunks are ~20-line windows overlapping by 4 lines. The
 * index is built on first search and cached per store and handle (bounded LRU). A malformed, unknown or
 * forged handle raises UnknownHandleError, as `expand` does.
 */
export const search: Searcher = createSearcher();
