import {
  addressOf,
  type Handle,
  HandleCollisionError,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
import { isWellFormedHandle } from './stored-original.js';

/** Options of the in-memory store. */
export interface MemoryRestoreStoreOptions {
  /** Evict least-recently-used originals once the held bytes exceed this (default 256 MiB). */
  readonly maxBytes?: number;
}

/** Default bound of the in-memory store: generous for one process, small beside a machine's memory. */
export const DEFAULT_MEMORY_STORE_MAX_BYTES = 256 * 1024 ** 2;

interface HeldOriginal {
  readonly digest: string;
  readonly bytes: Uint8Array;
}

/**
 * A RestoreStore in process memory, bounded by bytes with least-recently-used eviction (a `Map` keeps
 * insertion order, so re-inserting on use makes its first key the least recently used). Originals are
 * copied in and out so a caller mutating its buffer can never change what a handle resolves to.
 */
export class MemoryRestoreStore implements RestoreStore {
  readonly maxBytes: number;
  readonly #held = new Map<Handle, HeldOriginal>();
  #bytes = 0;

  constructor(options: MemoryRestoreStoreOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORE_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
      throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
    }
    this.maxBytes = maxBytes;
  }

  /** Bytes currently held (originals only). */
  get size(): number {
    return this.#bytes;
  }

  /** Stores a copy of `original`; same bytes give the same handle. Throws when it alone exceeds maxBytes. */
  async put(original: Uint8Array): Promise<Handle> {
    const address = addressOf(original);
    const existing = this.#held.get(address.handle);
    if (existing) {
      if (existing.digest !== address.digest) throw new HandleCollisionError(address.handle);
      this.#touch(address.handle, existing);
      return address.handle;
    }
    if (original.byteLength > this.maxBytes) {
      throw new RangeError(
        `an original of ${original.byteLength} bytes exceeds the memory store's maxBytes (${this.maxBytes})`,
      );
    }
    this.#held.set(address.handle, { digest: address.digest, bytes: Uint8Array.from(original) });
    this.#bytes += original.byteLength;
    this.#evict();
    return address.handle;
  }

  /** A copy of the original; UnknownHandleError for a malformed, unknown or evicted handle. */
  async get(handle: Handle): Promise<Uint8Array> {
    if (!isWellFormedHandle(handle)) throw new UnknownHandleError(String(handle), 'not a well-formed handle');
    const held = this.#held.get(handle);
    if (!held) throw new UnknownHandleError(handle);
    this.#touch(handle, held);
    return Uint8Array.from(held.bytes);
  }

  /** Whether `get` would succeed (counts as a use for the LRU order). */
  async has(handle: Handle): Promise<boolean> {
    if (!isWellFormedHandle(handle)) return false;
    const held = this.#held.get(handle);
    if (held) this.#touch(handle, held);
    return held !== undefined;
  }

  /** Drops every original. */
  async close(): Promise<void> {
    this.#held.clear();
    this.#bytes = 0;
  }

  #touch(handle: Handle, held: HeldOriginal): void {
    this.#held.delete(handle);
    this.#held.set(handle, held);
  }

  #evict(): void {
    for (const [handle, held] of this.#held) {
      if (this.#bytes <= this.maxBytes) return;
      this.#held.delete(handle);
      this.#bytes -= held.bytes.byteLength;
    }
  }
}
