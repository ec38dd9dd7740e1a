import { isUtf8 } from 'node:buffer';
import { canonicalEscapes, type DecodedLiteral, decodeLiteral } from './json-literal.js';
import {
  copyJson,
  type InnerRange,
  MIN_SUBTREE_BYTES,
  type SubtreeEntry,
  type SubtreeMemo,
} from './subtree-memo.js';

/** Decodes the long string literals a scan lifts out (LiteralCache remembers them across requests). */
export interface LiteralDecoder {
  decode(raw: Buffer, start: number, end: number): DecodedLiteral;
}

const PLAIN: LiteralDecoder = { decode: decodeLiteral };

/** A path into a JSON document: object keys and array indices. */
export type JsonPath = readonly (string | number)[];

/** Where a value's bytes sit in the raw body: `[start, end)`. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** A request body read by `scanJson`. */
export interface ScannedJson {
  /** The parsed value: deep-equal to `JSON.parse(raw.toString('utf8'))`. */
  readonly value: unknown;
  /**
   * Whether `JSON.stringify(value)` gives the body back byte for byte (compact, canonical escapes and
   * numbers, no duplicate or integer-like keys, valid UTF-8). Only then may an edit be spliced into the
   * raw bytes instead of re-serialising: the spliced bytes are then the ones re-serialising would send.
   */
  readonly canonical: boolean;
  /** The byte range of the value at a watched path (see PathPatterns), if the body has one there. */
  rangeOf(path: JsonPath): ByteRange | undefined;
  /**
   * The items of the top-level array under `key` (`''`: the body itself, when it is an array), if the
   * body has a non-empty one there (see ItemSpans).
   */
  itemsOf(key: string): ItemSpans | undefined;
}

/**
 * The items of a top-level array (a conversation's history) as a scan met them, for a later request
 * that repeats them (see last-rewrite.ts): the byte offset just past each item, and the offset of the
 * closing `]`.
 */
export interface ItemSpans {
  readonly ends: readonly number[];
  readonly close: number;
  /**
   * Each item's parsed value, never to be edited: the memo's own (frozen, shared) or a copy; null unless
   * every item is an object at a memo spot. Read it before the request's value is edited.
   */
  values(): readonly unknown[] | null;
}

interface PatternNode {
  readonly keys: Map<string, PatternNode>;
  any: PatternNode | null;
  terminal: boolean;
}

const newNode = (): PatternNode => ({ keys: new Map(), any: null, terminal: false });

/** The paths whose byte ranges a scan records; `'*'` stands for any array index. */
export class PathPatterns {
  readonly root: PatternNode = newNode();

  constructor(patterns: readonly (readonly string[])[]) {
    for (const pattern of patterns) {
      let node = this.root;
      for (const step of pattern) {
        if (step === '*') {
          node.any ??= newNode();
          node = node.any;
        } else {
          const next = node.keys.get(step) ?? newNode();
          node.keys.set(step, next);
          node = next;
        }
      }
      node.terminal = true;
    }
  }

  /**
   * The patterns an array of the items under top-level `key` is scanned with on its own (`[item, …]`):
   * what `key`'s items watch, at the root's items.
   */
  itemsOf(key: string): PathPatterns {
    const below = new PathPatterns([]);
    below.root.any = this.root.keys.get(key)?.any ?? null;
    return below;
  }
}

/** The key a watched path's range is filed under. Watched keys are fixed words, so `/` cannot clash. */
function pathKey(path: JsonPath): string {
  return path.join('/');
}

/** Strings at least this long are decoded one by one, outside the skeleton (see scanJson). */
const LIFT_BYTES = 256;
/** A string is searched byte by byte for this long before handing over to the native search. */
const SHORT_STRING_BYTES = 48;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// The bytes of true, false, null and numbers: lower-case letters, digits, '-', '+', '.', 'E'.
const SCALAR_BYTES = new Uint8Array(256);
for (const byte of Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789-+.E')) SCALAR_BYTES[byte] = 1;

/** Raised inside the scan for anything it does not read; the caller then parses the body the plain way. */
class Unscannable extends Error {}

/**
 * Reads a JSON request body without turning it into one string. `JSON.parse(raw.toString())` allocates
 * the whole body as a single string first — past ~128 KB V8 puts that in large-object space, which cost
 * ~150 µs for a 200 KB body here, as much as the parse — and gives no byte positions to edit in place.
 * This walks the structure over the bytes, lifts out every long string (tool results, file reads) and
 * parses the small remainder, the skeleton, with JSON.parse; each lifted string is decoded on its own and
 * put back. With `subtrees`, an object met before byte for byte (a message of the history, a tool) is
 * skipped and a copy of its value put back the same way (see SubtreeMemo). On the way it records the byte
 * ranges of the watched paths and whether the body is canonical JSON (see ScannedJson). Returns null for
 * anything it does not read (invalid JSON, duplicate keys, a `__proto__` key, very deep nesting): the
 * caller then falls back to JSON.parse, which decides.
 */
export function scanJson(
  raw: Buffer,
  patterns: PathPatterns,
  literals: LiteralDecoder = PLAIN,
  subtrees: SubtreeMemo | null = null,
): ScannedJson | null {
  try {
    return new Scan(raw, patterns, literals, subtrees).run();
  } catch (error) {
    if (error instanceof Unscannable || error instanceof SyntaxError || error instanceof RangeError)
      return null;
    throw error;
  }
}

/** The parsed body: the scan's value, or (when it declined) JSON.parse's, which throws on invalid JSON. */
export function jsonOf(raw: Buffer, scanned: ScannedJson | null): unknown {
  return scanned ? scanned.value : JSON.parse(raw.toString('utf8'));
}

/** A stretch of the body left out of the skeleton: a long string, or a remembered object (`entry`). */
interface Lifted {
  readonly path: (string | number)[];
  readonly start: number;
  readonly end: number;
  readonly entry?: SubtreeEntry;
}

/** An object at a memo spot that was scanned, to remember once the body is parsed. */
interface Fresh {
  readonly path: (string | number)[];
  readonly start: number;
  end: number;
  readonly ranges: InnerRange[];
  canonical: boolean;
}

/** A memo spot met, in body order: its parent's key, and what fills it (remembered, or fresh). */
interface Spot {
  readonly parent: string;
  readonly filled: SubtreeEntry | Fresh;
  /** The memo entry that holds it once the scan is done (the one recalled, or remembered now). */
  entry: SubtreeEntry | null;
}

/** A top-level array met by a scan: where each item ends, where it closes, and its items' spots. */
interface ArrayMet {
  readonly ends: number[];
  close: number;
  readonly spots: number[];
  objects: boolean;
}

/**
 * The watched ranges inside the remembered objects a scan skipped, found from a path when asked rather
 * than filed by key as the scan meets them: a warm request skips ~80 objects and asks for the ranges of
 * the ~40 texts it rewrites, and filing every range under a string key made garbage on every request.
 * A spot is a value under a top-level key (`[key]`) or an item of a top-level array (`[key, i]`).
 */
class RememberedRanges {
  readonly #byKey = new Map<string, { readonly start: number; readonly entry: SubtreeEntry }>();
  readonly #byItem = new Map<
    string,
    ({ readonly start: number; readonly entry: SubtreeEntry } | undefined)[]
  >();

  add(spot: JsonPath, start: number, entry: SubtreeEntry): void {
    const key = spot[0] as string;
    if (spot.length === 1) {
      this.#byKey.set(key, { start, entry });
      return;
    }
    let items = this.#byItem.get(key);
    if (!items) {
      items = [];
      this.#byItem.set(key, items);
    }
    items[spot[1] as number] = { start, entry };
  }

  /** The range at `path` inside a remembered object, if it lies in one (else the scan's own ranges hold it). */
  rangeOf(path: JsonPath): ByteRange | undefined {
    const key = path[0];
    if (path.length < 2 || typeof key !== 'string') return undefined;
    const step = path[1]!;
    // an index written as its digits names the same range, as the scan's own range keys read it
    const index = typeof step === 'number' ? step : step === String(Number(step)) ? Number(step) : -1;
    let depth = 2;
    let hit = index >= 0 ? this.#byItem.get(key)?.[index] : undefined;
    if (!hit) {
      hit = this.#byKey.get(key);
      depth = 1;
    }
    if (!hit) return undefined;
    for (const inner of hit.entry.ranges) {
      if (sameTail(inner.below, path, depth))
        return { start: hit.start + inner.start, end: hit.start + inner.end };
    }
    return undefined;
  }
}

/**
 * Whether `path` from `depth` on is `below`, as their keys would read (`pathKey`): an index and the
 * same digits as a key name one range there.
 */
function sameTail(below: JsonPath, path: JsonPath, depth: number): boolean {
  if (path.length - depth !== below.length) return false;
  for (let k = 0; k < below.length; k++) {
    const a = below[k]!;
    const b = path[depth + k]!;
    if (a !== b && (typeof a === typeof b || String(a) !== String(b))) return false;
  }
  return true;
}

class Scan {
  #at = 0;
  #canonical = true;
  readonly #raw: Buffer;
  readonly #patterns: PathPatterns;
  readonly #path: (string | number)[] = [];
  readonly #ranges = new Map<string, ByteRange>();
  readonly #lifted: Lifted[] = [];
  // The keys of every object being read, innermost last: one array for the whole scan rather than one
  // per object (a fresh array per object was ~40 KB of garbage for a 200 KB request).
  readonly #openKeys: string[] = [];
  readonly #literals: LiteralDecoder;
  readonly #subtrees: SubtreeMemo | null;
  readonly #spots: Spot[] = [];
  /** The remembered objects met, by spot, for the watched ranges inside them (see RememberedRanges). */
  readonly #hits = new RememberedRanges();
  /** The fresh object being scanned at a memo spot, which collects the watched ranges inside it. */
  #open: Fresh | null = null;
  /** The top-level arrays met, by key (see ItemSpans). */
  readonly #arrays = new Map<string, ArrayMet>();

  constructor(raw: Buffer, patterns: PathPatterns, literals: LiteralDecoder, subtrees: SubtreeMemo | null) {
    this.#raw = raw;
    this.#patterns = patterns;
    this.#literals = literals;
    this.#subtrees = subtrees;
  }

  run(): ScannedJson {
    const raw = this.#raw;
    this.#space();
    this.#value(this.#patterns.root);
    this.#space();
    if (this.#at !== raw.length) throw new Unscannable();
    // The skeleton: the body with each lifted string replaced by 0 (valid JSON, a few KB), assembled as
    // bytes and decoded once.
    let size = raw.length;
    for (const lifted of this.#lifted) size -= lifted.end - lifted.start - 1;
    const bytes = Buffer.allocUnsafe(size);
    let from = 0;
    let to = 0;
    for (const lifted of this.#lifted) {
      to += raw.copy(bytes, to, from, lifted.start);
      bytes[to++] = 0x30;
      from = lifted.end;
    }
    raw.copy(bytes, to, from, raw.length);
    const skeleton = bytes.toString('utf8');
    if (this.#canonical && !canonicalEscapes(skeleton)) this.#canonical = false;
    let value: unknown = JSON.parse(skeleton);
    for (const lifted of this.#lifted) {
      if (lifted.entry) {
        putAt(value, lifted.path, copyJson(lifted.entry.value));
        continue;
      }
      const decoded = this.#literals.decode(raw, lifted.start, lifted.end);
      if (!decoded.canonical) this.#canonical = false;
      if (lifted.path.length === 0) value = decoded.text;
      else putAt(value, lifted.path, decoded.text);
    }
    if (this.#canonical && !isUtf8(raw)) this.#canonical = false;
    if (this.#subtrees) this.#remember(value);
    const ranges = this.#ranges;
    const hits = this.#hits;
    const arrays = this.#arrays;
    const spots = this.#spots;
    return {
      value,
      canonical: this.#canonical,
      rangeOf: (path) => hits.rangeOf(path) ?? ranges.get(pathKey(path)),
      itemsOf: (key) => {
        const met = arrays.get(key);
        if (!met || met.close < 0) return undefined;
        const items = (key === '' ? value : (value as Record<string, unknown>)[key]) as unknown[];
        return {
          ends: met.ends,
          close: met.close,
          // an item the memo did not take is copied: the request's own value is edited in place later
          values: () =>
            met.objects ? met.spots.map((at, i) => spots[at]!.entry?.value ?? copyJson(items[i])) : null,
        };
      },
    };
  }

  #value(node: PatternNode | null): void {
    const start = this.#at;
    const byte = this.#raw[start];
    if (byte === 0x7b) {
      if (this.#subtrees && this.#atSpot()) this.#spot(node, start);
      else this.#object(node);
    } else if (byte === 0x5b) this.#array(node);
    else if (byte === QUOTE) {
      this.#string();
      if (this.#at - start >= LIFT_BYTES) {
        this.#lifted.push({ path: [...this.#path], start, end: this.#at });
      }
    } else this.#scalar();
    if (node?.terminal) {
      this.#ranges.set(pathKey(this.#path), { start, end: this.#at });
      const open = this.#open;
      if (open)
        open.ranges.push({
          below: this.#path.slice(open.path.length),
          start: start - open.start,
          end: this.#at - open.start,
        });
    }
  }

  /**
   * Whether an object here is one the memo takes: a value under a top-level key, or an item of a
   * top-level array (messages, tools, input items) — the units an agent resends unchanged turn after turn.
   */
  #atSpot(): boolean {
    const path = this.#path;
    return (
      (path.length === 1 && typeof path[0] === 'string') ||
      (path.length === 2 && typeof path[0] === 'string' && typeof path[1] === 'number')
    );
  }

  /** An object at a memo spot: skipped when remembered, else scanned and noted to remember. */
  #spot(node: PatternNode | null, start: number): void {
    const path = this.#path;
    const parent = path.length === 1 ? '' : (path[0] as string);
    const last = this.#spots[this.#spots.length - 1];
    const guess = last?.parent === parent && 'bytes' in last.filled ? last.filled.next : null;
    const entry = this.#subtrees!.recall(this.#raw, start, this.#patterns, guess);
    if (entry) {
      this.#at = start + entry.bytes.length;
      if (!entry.canonical) this.#canonical = false;
      this.#lifted.push({ path: [...path], start, end: this.#at, entry });
      if (entry.ranges.length > 0) this.#hits.add(path, start, entry);
      this.#spots.push({ parent, filled: entry, entry });
      return;
    }
    // Scanned with a canonical flag of its own, so the memo knows whether this object alone is canonical.
    const canonicalBefore = this.#canonical;
    this.#canonical = true;
    const fresh: Fresh = { path: [...path], start, end: start, ranges: [], canonical: true };
    this.#open = fresh;
    this.#object(node);
    this.#open = null;
    fresh.end = this.#at;
    fresh.canonical = this.#canonical;
    this.#canonical = canonicalBefore && this.#canonical;
    this.#spots.push({ parent, filled: fresh, entry: null });
  }

  /**
   * Remembers the objects scanned at memo spots (long enough to be worth it), from the parsed body before
   * anyone edits it, and links each spot to the one after it under the same parent.
   */
  #remember(value: unknown): void {
    const raw = this.#raw;
    const memo = this.#subtrees!;
    let previous: { parent: string; entry: SubtreeEntry | null } | null = null;
    for (const spot of this.#spots) {
      let entry: SubtreeEntry | null = null;
      if ('bytes' in spot.filled) entry = spot.filled;
      else {
        const fresh = spot.filled;
        if (fresh.end - fresh.start >= MIN_SUBTREE_BYTES) {
          // A canonical body is canonical in every part (JSON.stringify of the whole is made of its parts');
          // otherwise the object's own escapes are checked (the walk saw the rest: spacing, numbers, keys).
          const canonical =
            this.#canonical ||
            (fresh.canonical && canonicalEscapes(raw.toString('utf8', fresh.start, fresh.end)));
          entry = memo.remember(
            raw,
            fresh.start,
            fresh.end,
            valueAt(value, fresh.path),
            fresh.ranges,
            this.#patterns,
            canonical,
          );
        }
      }
      spot.entry = entry;
      if (previous?.entry && previous.parent === spot.parent) previous.entry.next = entry;
      previous = { parent: spot.parent, entry };
    }
  }

  #object(node: PatternNode | null): void {
    const raw = this.#raw;
    this.#at++;
    this.#space();
    if (raw[this.#at] === 0x7d) {
      this.#at++;
      return;
    }
    const seen = this.#openKeys;
    const firstKey = seen.length;
    const depth = this.#path.length;
    this.#path.push('');
    for (;;) {
      if (raw[this.#at] !== QUOTE) throw new Unscannable();
      const keyStart = this.#at;
      this.#string();
      const key = KEYS.read(raw, keyStart, this.#at);
      // Duplicate keys: JSON.parse keeps the last, which the lifted strings' paths cannot express.
      if (key === '__proto__' || seen.indexOf(key, firstKey) !== -1) throw new Unscannable();
      seen.push(key);
      // V8 orders integer-like keys first, so JSON.stringify would move them.
      if (this.#canonical && isIndexLike(key)) this.#canonical = false;
      this.#space();
      if (raw[this.#at] !== 0x3a) throw new Unscannable();
      this.#at++;
      this.#space();
      this.#path[depth] = key;
      this.#value(node?.keys.get(key) ?? null);
      this.#space();
      const next = raw[this.#at++];
      if (next === 0x7d) break;
      if (next !== 0x2c) throw new Unscannable();
      this.#space();
    }
    // pops rather than `length =`: setting an array's length is a runtime call, ~3% of a scan here
    while (seen.length > firstKey) seen.pop();
    this.#path.pop();
  }

  #array(node: PatternNode | null): void {
    const raw = this.#raw;
    this.#at++;
    this.#space();
    if (raw[this.#at] === 0x5d) {
      this.#at++;
      return;
    }
    const depth = this.#path.length;
    const items = node?.any ?? null;
    const met: ArrayMet | null = depth <= 1 ? { ends: [], close: -1, spots: [], objects: true } : null;
    if (met) this.#arrays.set(depth === 0 ? '' : (this.#path[0] as string), met);
    for (let index = 0; ; index++) {
      this.#path[depth] = index;
      if (met) {
        if (raw[this.#at] === 0x7b && depth === 1 && this.#subtrees) met.spots.push(this.#spots.length);
        else met.objects = false;
      }
      this.#value(items);
      met?.ends.push(this.#at);
      this.#space();
      const next = raw[this.#at++];
      if (next === 0x5d) break;
      if (next !== 0x2c) throw new Unscannable();
      this.#space();
    }
    if (met) met.close = this.#at - 1;
    this.#path.pop();
  }

  /** Moves past a string (its opening quote is at the cursor); its content is checked by JSON.parse. */
  #string(): void {
    const end = stringEnd(this.#raw, this.#at);
    if (end < 0) throw new Unscannable();
    this.#at = end;
  }

  /** A number or a literal; kept in the skeleton, so JSON.parse validates it. */
  #scalar(): void {
    const raw = this.#raw;
    const start = this.#at;
    let at = start;
    for (;;) {
      const byte = raw[at];
      if (byte === undefined || !SCALAR_BYTES[byte]) break;
      at++;
    }
    if (at === start) throw new Unscannable();
    this.#at = at;
    const first = raw[start]!;
    if (this.#canonical && (first === 0x2d || (first >= 0x30 && first <= 0x39))) {
      const token = raw.toString('latin1', start, at);
      if (String(Number(token)) !== token) this.#canonical = false;
    }
  }

  /** Skips insignificant whitespace; any at all means the body is not compact (not canonical). */
  #space(): void {
    const raw = this.#raw;
    let at = this.#at;
    for (;;) {
      const byte = raw[at];
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) break;
      at++;
    }
    if (at !== this.#at) {
      this.#canonical = false;
      this.#at = at;
    }
  }
}

/**
 * Object keys repeat all through a request (`role`, `content`, `type`, `text`) and from one request to
 * the next: each distinct spelling is decoded once and found again by its first and last bytes and
 * length. Shared by every scan of the process (a fresh one per scan decoded a Responses body's dozen
 * top-level keys again on every turn), and started over past MAX_KEYS so a client sending endless
 * distinct keys cannot grow it.
 */
class KeyCache {
  readonly #seen = new Map<number, string[]>();
  #count = 0;

  read(raw: Buffer, start: number, end: number): string {
    const length = end - start - 2;
    const tag = length * 65536 + raw[start + 1]! * 256 + raw[end - 2]!;
    const candidates = this.#seen.get(tag);
    if (candidates) for (const key of candidates) if (sameBytes(raw, start + 1, key)) return key;
    const key = JSON.parse(raw.toString('utf8', start, end)) as string;
    // Only plain ASCII keys are cached: for them, the bytes and the characters line up one to one.
    if (key.length === length) {
      if (this.#count >= MAX_KEYS) {
        this.#seen.clear();
        this.#count = 0;
      }
      this.#count++;
      const bucket = this.#seen.get(tag);
      if (bucket) bucket.push(key);
      else this.#seen.set(tag, [key]);
    }
    return key;
  }
}

/** Distinct keys the shared cache holds before it starts over. */
const MAX_KEYS = 1024;
const KEYS = new KeyCache();

function sameBytes(raw: Buffer, at: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) if (raw[at + i] !== key.charCodeAt(i)) return false;
  return true;
}

function isIndexLike(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root as Record<string | number, unknown>;
  for (const step of path) value = value[step] as Record<string | number, unknown>;
  return value;
}

/**
 * The offset just past the JSON string whose opening quote is at `start`, or -1 when it never closes.
 * Short strings are stepped through; longer ones use the native search, where an odd run of backslashes
 * before a quote escapes it.
 */
export function stringEnd(raw: Buffer, start: number): number {
  let at = start + 1;
  const shortEnd = Math.min(raw.length, at + SHORT_STRING_BYTES);
  for (; at < shortEnd; at++) {
    const byte = raw[at];
    if (byte === QUOTE) return at + 1;
    if (byte === BACKSLASH) at++;
  }
  for (;;) {
    const quote = raw.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let slashes = 0;
    while (raw[quote - 1 - slashes] === BACKSLASH) slashes++;
    at = quote + 1;
    if (slashes % 2 === 0) return at;
  }
}

/** Sets the value at `path` (every step but the last already there) of a parsed JSON value. */
export function putAt(root: unknown, path: JsonPath, value: unknown): void {
  let container = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) container = container[path[i]!] as Record<string, unknown>;
  container[path[path.length - 1]!] = value;
}
