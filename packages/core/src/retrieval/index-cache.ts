import type { Handle, RestoreStore } from '@distil/contract';
import type { Bm25Index } from './bm25-index.js';
import type { TextChunk } from './chunk-lines.js';

/** A searchable original: its chunks and their BM25 index. */
export interface ChunkIndex {
  readonly chunks: readonly TextChunk[];
  readonly index: Bm25Index;
  /** Characters of the original, the cost counted against the cache bound. */
  readonly chars: number;
}

/** Bounds of the per-store index cache. */
export interface IndexCacheLimits {
  /** Indexes kept per store (default 32). */
  readonly maxEntries: number;
  /** Characters of indexed originals kept per store (default 64 Mi): a few huge logs cannot pin memory. */
  readonly maxChars: number;
}

export const INDEX_CACHE_DEFAULTS: IndexCacheLimits = Object.freeze({
  maxEntries: 32,
  maxChars: 64 * 1024 ** 2,
});

/**
 * Least-recently-used cache of chunk indexes, kept separately for each store (a WeakMap, so a closed and
 * dropped store takes its cache with it). Keying by store as well as handle means a search through a store
 * that does not hold a handle is still answered by that store (UnknownHandleError), never from another
 * store's cache.
 */
export class IndexCache {
  readonly #limits: IndexCacheLimits;
  readonly #byStore = new WeakMap<RestoreStore, Map<Handle, ChunkIndex>>();
  readonly #chars = new WeakMap<RestoreStore, number>();

  constructor(limits: Partial<IndexCacheLimits> = {}) {
    this.#limits = { ...INDEX_CACHE_DEFAULTS, ...limits };
  }

  /** The cached index of `handle` in `store`, refreshed as most recently used. */
  get(store: RestoreStore, handle: Handle): ChunkIndex | undefined {
    const entries = this.#byStore.get(store);
    const entry = entries?.get(handle);
    if (entries && entry) {
      entries.delete(handle);
      entries.set(handle, entry);
    }
    return entry;
  }

  /** Caches an index, evicting least recently used ones past the bounds; an index over maxChars is not kept. */
  set(store: RestoreStore, handle: Handle, entry: ChunkIndex): void {
    if (entry.chars > this.#limits.maxChars) return;
    let entries = this.#byStore.get(store);
    if (!entries) {
      entries = new Map();
      this.#byStore.set(store, entries);
    }
    let chars = this.#chars.get(store) ?? 0;
    const previous = entries.get(handle);
    if (previous) {
      entries.delete(handle);
      chars -= previous.chars;
    }
    entries.set(handle, entry);
    chars += entry.chars;
    for (const [oldest, old] of entries) {
      if (entries.size <= this.#limits.maxEntries && chars <= this.#limits.maxChars) break;
      entries.delete(oldest);
      chars -= old.chars;
    }
    this.#chars.set(store, chars);
  }
}
