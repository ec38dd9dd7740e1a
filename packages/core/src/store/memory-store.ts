import { promisify } from 'node:util';
import { constants, deflateRaw, deflateRawSync, inflateRaw, inflateRawSync } from 'node:zlib';
import {
  addressOf,
  type ContentAddress,
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

/**
 * An original as held: one latin1 string (every byte 0–255 one character) of the full digest's 32 bytes,
 * then the original or its raw-deflate stream. A proxy's store holds hundreds of thousands of short fold
 * originals; as a Uint8Array each (with its ArrayBuffer, backing store and a hex digest string beside it)
 * one took ~400 bytes of heap besides its own, ~60 MB for a thousand sessions, where a string takes its
 * header and its bytes.
 */
class HeldOriginal {
  constructor(
    readonly record: string,
    /** The original's length (what `maxBytes` bounds); longer than the held bytes when deflated. */
    readonly length: number,
  ) {}

  /** Whether the bytes are the original's raw-deflate stream (only kept when shorter, see pack). */
  get packed(): boolean {
    return this.record.length - DIGEST_BYTES < this.length;
  }

  /** The held bytes: the original, or its deflate stream. */
  get bytes(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.record.length - DIGEST_BYTES);
    out.write(this.record.slice(DIGEST_BYTES), 'latin1');
    return out;
  }

  /** Whether it holds the original of this full digest (hex). */
  holds(digest: string): boolean {
    return this.record.startsWith(Buffer.from(digest, 'hex').toString('latin1'));
  }

  /** Whether another record (see recordOf) is of the same digest. */
  holdsDigestOf(record: string): boolean {
    return this.record.startsWith(record.slice(0, DIGEST_BYTES));
  }
}

/** Bytes of a SHA-256 digest: each held record starts with its own. */
const DIGEST_BYTES = 32;

/** The record of an original (see HeldOriginal): its digest's bytes, then `bytes`, in one flat string. */
function recordOf(digest: string, bytes: Uint8Array): string {
  const record = Buffer.allocUnsafe(DIGEST_BYTES + bytes.byteLength);
  record.write(digest, 'hex');
  record.set(bytes, DIGEST_BYTES);
  return record.toString('latin1');
}

/** Originals shorter than this are kept as they are: deflating them saves too little to pay for. */
const MIN_PACKED_BYTES = 1024;

// zlib's asynchronous calls run on libuv's thread pool: a proxy's event loop does not wait while a
// 200 KB original deflates (~1–3 ms here), so the other streams it serves do not either. Each such call
// also waits a turn of the event loop and of the pool, which a short original does not repay: a digest
// puts one original per fold, and 200 KB of log folded in ~100 places took +150 ms of its own request's
// latency when every put went to the pool. Below this size zlib runs in place (~20 µs for 5 KB).
const POOLED_BYTES = 64 * 1024;
const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

/**
 * An original as held: raw deflate at the fastest level when that saves at least a quarter of it. A
 * proxy's originals are tool outputs — logs, listings, file reads — that deflate to a fifth or less, and
 * a proxy holding a thousand sessions' originals in memory held ~190 KB per conversation as they were.
 * Level 1 costs ~20 µs for a 5 KB log, paid once when the original is first stored; a get inflates it.
 */
async function pack(original: Uint8Array): Promise<Uint8Array> {
  if (original.byteLength >= MIN_PACKED_BYTES) {
    const options = { level: constants.Z_BEST_SPEED };
    const deflated =
      original.byteLength >= POOLED_BYTES
        ? await deflateRawAsync(original, options)
        : deflateRawSync(original, options);
    if (deflated.byteLength * 4 <= original.byteLength * 3) return deflated;
  }
  return original;
}

/**
 * An original hashed and packed as the memory store holds it, ready for {@link MemoryRestoreStore.putPacked}:
 * plain data (a string and numbers), so it crosses to another thread as a copy of its bytes.
 */
export interface PackedOriginal {
  readonly handle: Handle;
  /** The digest's 32 bytes, then the original or its raw-deflate stream, one byte per character. */
  readonly record: string;
  /** The original's length. */
  readonly length: number;
}

async function packWith(address: ContentAddress, original: Uint8Array): Promise<PackedOriginal> {
  const record = recordOf(address.digest, await pack(original));
  return { handle: address.handle, record, length: original.byteLength };
}

/**
 * Hashes and packs an original for the memory store, in whichever thread calls it: a compress worker
 * packs the originals of its block so that the proxy's event loop only files them (a new 200 KB result
 * is ~30 originals, whose SHA-256 and deflate cost that thread a few milliseconds).
 */
export function packOriginal(original: Uint8Array): Promise<PackedOriginal> {
  return packWith(addressOf(original), original);
}

/** A store that also files originals packed elsewhere (the memory store; see packOriginal). */
export interface PackedPuts {
  putPacked(packed: PackedOriginal): Promise<Handle>;
}

/** Whether `store` files packed originals. */
export function takesPacked<T extends RestoreStore>(store: T): store is T & PackedPuts {
  return typeof (store as Partial<PackedPuts>).putPacked === 'function';
}

/**
 * A RestoreStore in process memory, bounded by bytes with least-recently-used eviction (a `Map` keeps
 * insertion order, so re-inserting on use makes its first key the least recently used). Originals are
 * copied in and out so a caller mutating its buffer can never change what a handle resolves to; a long
 * one is held deflated (see pack) and inflated back byte for byte. `maxBytes` bounds the originals'
 * own bytes, so what fits does not depend on how well they deflate.
 */
export class MemoryRestoreStore implements RestoreStore, PackedPuts {
  readonly maxBytes: number;
  readonly #held = new Map<Handle, HeldOriginal>();
  // puts whose original is still deflating: a second put of the same bytes waits for the first
  readonly #packing = new Map<Handle, Promise<Handle>>();
  #bytes = 0;

  constructor(options: MemoryRestoreStoreOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORE_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
      throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
    }
    this.maxBytes = maxBytes;
  }

  /** Bytes of the originals currently held. */
  get size(): number {
    return this.#bytes;
  }

  /** Bytes the held originals take in memory (the long ones deflated). */
  get heldBytes(): number {
    let held = 0;
    for (const original of this.#held.values()) held += original.record.length - DIGEST_BYTES;
    return held;
  }

  /** Stores a copy of `original`; same bytes give the same handle. Throws when it alone exceeds maxBytes. */
  async put(original: Uint8Array): Promise<Handle> {
    const address = addressOf(original);
    const existing = this.#held.get(address.handle);
    if (existing) {
      if (!existing.holds(address.digest)) throw new HandleCollisionError(address.handle);
      this.#touch(address.handle, existing);
      return address.handle;
    }
    this.#checkLength(original.byteLength);
    const pending = this.#packing.get(address.handle);
    if (pending) return pending.then(() => this.put(original));
    // copied before the first await: the caller may reuse its buffer as soon as put returns a promise
    const stored = packWith(address, Uint8Array.from(original)).then((packed) => this.#hold(packed));
    this.#packing.set(address.handle, stored);
    try {
      return await stored;
    } finally {
      this.#packing.delete(address.handle);
    }
  }

  /**
   * Stores an original another thread already hashed and packed ({@link packOriginal}): what `put` does
   * after its hash and deflate, which a compress worker runs instead of the proxy's event loop. The
   * record is trusted to be what packOriginal made of the original (it comes from this program's own
   * worker, never from a request); a collision or an oversized original is refused as by `put`.
   */
  async putPacked(packed: PackedOriginal): Promise<Handle> {
    // a put of the same bytes still deflating: let it finish, so this one finds it held
    await this.#packing.get(packed.handle)?.catch(() => {});
    return this.#hold(packed);
  }

  #checkLength(length: number): void {
    if (length > this.maxBytes) {
      throw new RangeError(
        `an original of ${length} bytes exceeds the memory store's maxBytes (${this.maxBytes})`,
      );
    }
  }

  /** Holds a packed original (or touches the one already held under its handle). */
  #hold({ handle, record, length }: PackedOriginal): Handle {
    const existing = this.#held.get(handle);
    if (existing) {
      if (!existing.holdsDigestOf(record)) throw new HandleCollisionError(handle);
      this.#touch(handle, existing);
      return handle;
    }
    this.#checkLength(length);
    this.#held.set(handle, new HeldOriginal(record, length));
    this.#bytes += length;
    this.#evict();
    return handle;
  }

  /** A copy of the original; UnknownHandleError for a malformed, unknown or evicted handle. */
  async get(handle: Handle): Promise<Uint8Array> {
    if (!isWellFormedHandle(handle)) throw new UnknownHandleError(String(handle), 'not a well-formed handle');
    const held = this.#held.get(handle);
    if (!held) throw new UnknownHandleError(handle);
    this.#touch(handle, held);
    // a fresh buffer of its own either way: a caller may write to it, or hand its `.buffer` on
    const bytes = held.bytes;
    if (!held.packed) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const inflated = held.length >= POOLED_BYTES ? await inflateRawAsync(bytes) : inflateRawSync(bytes);
    return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
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
      this.#bytes -= held.length;
    }
  }
}
