import { evictOldest, ownBytes, type Recalled } from './cache-entries.js';
import type { JsonPath } from './json-scan.js';

/**
 * A watched path's range inside a remembered subtree: the path below the subtree (`content`, 0,
 * `content`), and bytes from the subtree's start.
 */
export interface InnerRange {
  readonly below: JsonPath;
  readonly start: number;
  readonly end: number;
}

/** One remembered subtree: its exact bytes and what a scan of them found. */
export interface SubtreeEntry extends Recalled {
  readonly bytes: Buffer;
  /** Its bucket: the hash of the body's bytes where it was first met (see keyAt). */
  readonly key: number;
  /**
   * The parsed object, frozen: a scan places a copy (a request's value is edited in place); only readers
   * get it as it is (a later request's unedited history, see last-rewrite.ts).
   */
  readonly value: unknown;
  /** The watched ranges inside it, relative to its first byte. */
  readonly ranges: readonly InnerRange[];
  /** What chose those ranges (the scan's path patterns): an entry serves only scans watching the same. */
  readonly watch: object;
  /** Whether its bytes are what `JSON.stringify` writes for `value` (see ScannedJson.canonical). */
  readonly canonical: boolean;
  /** The sibling that followed it in the last body that held it: the first guess for the next one. */
  next: SubtreeEntry | null;
  /** Set when evicted, so a `next` still pointing here is not taken. */
  gone: boolean;
}

/** The bytes hashed to file a subtree: its start (or the body's rest when shorter), enough to tell ids apart. */
const KEY_BYTES = 128;
/** Most entries filed under one key; the oldest makes way. */
const MAX_BUCKET = 8;
/** Objects shorter than this are scanned again rather than remembered. */
export const MIN_SUBTREE_BYTES = 64;

/**
 * The objects of recent request bodies (each message, tool and input item, and each object under a
 * top-level key), remembered by their exact bytes so a scan can skip them. An agent resends its whole
 * history every turn: on a warm turn of a 200 KB, 80-message conversation the scan walked and parsed
 * ~8 KB of skeleton for ~0.2 ms, all of it the same as a turn ago. With this, a message that is byte for
 * byte one already read costs a compare and a copy of its parsed value (a copy because the proxy edits a
 * request's value in place, so a remembered one is never handed out). A subtree is found first through
 * its predecessor's `next`, else by a hash of its first bytes; either way it is taken only when every one
 * of its bytes equals the body's at that point, so a hit is always exact. Past `maxBytes` (each entry
 * counted twice its size: the bytes and the parsed value) the oldest entries go first, each recalled one
 * given a second chance (`evictOldest`).
 */
export class SubtreeMemo {
  readonly #byKey = new Map<number, SubtreeEntry[]>();
  /** Every entry (keyed by itself), oldest (or longest since its second chance) first. */
  readonly #order = new Map<SubtreeEntry, SubtreeEntry>();
  readonly #maxBytes: number;
  #bytes = 0;

  /** `maxBytes`: the most the memo holds (default 8 MiB). */
  constructor(maxBytes = 8 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held now (counted as for `maxBytes`). */
  get size(): number {
    return this.#bytes;
  }

  /**
   * The remembered object whose bytes `raw` holds from `start` (an object's first byte), if any, among
   * those scanned watching `watch`.
   */
  recall(raw: Buffer, start: number, watch: object, guess: SubtreeEntry | null): SubtreeEntry | null {
    let found = guess && !guess.gone && guess.watch === watch && holds(raw, start, guess) ? guess : null;
    if (!found) {
      const candidates = this.#byKey.get(keyAt(raw, start));
      if (candidates)
        for (const entry of candidates)
          if (entry.watch === watch && holds(raw, start, entry)) {
            found = entry;
            break;
          }
    }
    if (found) found.used = true;
    return found;
  }

  /**
   * Remembers the object at `raw[start, end)`, parsed as `value` (which the caller may go on to edit: a
   * copy is kept), with its inner ranges as `watch` chose them.
   */
  remember(
    raw: Buffer,
    start: number,
    end: number,
    value: unknown,
    ranges: readonly InnerRange[],
    watch: object,
    canonical: boolean,
  ): SubtreeEntry {
    const key = keyAt(raw, start);
    const entry: SubtreeEntry = {
      bytes: ownBytes(raw, start, end),
      key,
      value: frozenCopy(value),
      ranges,
      watch,
      canonical,
      next: null,
      gone: false,
      used: false,
    };
    const bucket = this.#byKey.get(key);
    if (bucket) {
      // objects alike in their first bytes (a client's many near-identical items) cannot make a lookup
      // compare against more than a few
      if (bucket.length >= MAX_BUCKET) {
        this.#order.delete(bucket[0]!);
        this.#forget(bucket[0]!);
      }
      bucket.push(entry);
    } else this.#byKey.set(key, [entry]);
    this.#order.set(entry, entry);
    this.#bytes += 2 * entry.bytes.length;
    this.#evict();
    return entry;
  }

  #evict(): void {
    while (this.#bytes > this.#maxBytes) {
      const oldest = evictOldest(this.#order);
      if (!oldest) break;
      this.#forget(oldest[1]);
    }
  }

  /** Takes an entry out of its bucket and the count (the caller took it out of the order). */
  #forget(entry: SubtreeEntry): void {
    const bucket = this.#byKey.get(entry.key)!;
    bucket.splice(bucket.indexOf(entry), 1);
    if (bucket.length === 0) this.#byKey.delete(entry.key);
    entry.gone = true;
    entry.next = null;
    this.#bytes -= 2 * entry.bytes.length;
  }
}

/**
 * FNV-1a of the first KEY_BYTES bytes from `start`. An entry is filed by its own bytes, a lookup hashes the
 * body's: the same for any subtree of KEY_BYTES or more, and for a shorter one when what follows it
 * matches too (otherwise it is found through `next` or scanned again).
 */
function keyAt(raw: Buffer, start: number): number {
  const end = Math.min(raw.length, start + KEY_BYTES);
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ raw[i]!, 0x01000193);
  return hash >>> 0;
}

/** Does `raw` hold exactly `entry`'s bytes from `start`? (A complete object's bytes end where it ends.) */
function holds(raw: Buffer, start: number, entry: SubtreeEntry): boolean {
  const length = entry.bytes.length;
  return start + length <= raw.length && raw.compare(entry.bytes, 0, length, start, start + length) === 0;
}

/** {@link copyJson}, every object and array of it frozen: a shared value no one can edit by mistake. */
function frozenCopy(value: unknown): unknown {
  return deepFreeze(copyJson(value));
}

function deepFreeze(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/**
 * A fresh copy of a parsed JSON value: new objects and arrays, the same strings (immutable). Key order is
 * kept as V8 enumerates it, which is the order JSON.parse gave it. Only for values a scan accepted: a
 * `__proto__` key (which a scan refuses) would set the copy's prototype instead. A tree walk: ~10 µs for a 200 KB,
 * 80-message request here, against ~45 µs for JSON.parse of its ~8 KB skeleton and the walk to find it.
 */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  // for-in rather than Object.keys: no array of keys per object (a fifth faster here); a parsed value's
  // objects inherit nothing enumerable
  for (const key in value) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out;
}
