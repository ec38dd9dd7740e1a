import { scratchCodeUnits } from '../pipeline/code-units.js';

/** A near-duplicate found for a new text: the earlier entry and how many distinct lines they share. */
export interface ReReadMatch {
  readonly entry: number;
  readonly shared: number;
  /** `shared` over the larger of the two texts' distinct line counts: 1 for the same set of lines. */
  readonly share: number;
}

/** Lines shorter than this (blank, braces, `end`) say nothing about which text a line came from. */
const MIN_LINE_CHARS = 4;
/** A line seen in more entries than this (a shell prompt, a license header) stops being evidence. */
const MAX_POSTINGS = 64;

/**
 * Finds the earlier text a new one most resembles, by shared distinct lines: an inverted index from line
 * to the entries that contain it. Linear in the new text's lines; a re-read that changed one hunk shares
 * almost all of its lines with its earlier version, an unrelated text shares almost none.
 */
export class ReReadIndex {
  private readonly postings = new LinePostings();
  private readonly distinctCounts: number[] = [];
  // A new text is looked up, then indexed: its line keys are computed once for both.
  private last: { readonly text: string; readonly distinct: Uint32Array } | null = null;

  /** Indexes the lines of `text` (split at '\n') as entry number `entry` (entries come in increasing order). */
  add(entry: number, text: string): void {
    const distinct = this.distinctOf(text);
    this.last = null;
    this.distinctCounts[entry] = distinct.length;
    for (const line of distinct) this.postings.add(line, entry);
  }

  /**
   * The entry sharing the most distinct lines with `text`, when both sides share at least `minShare` of
   * their distinct lines (ties go to the most recent entry); null otherwise.
   */
  best(text: string, minShare: number): ReReadMatch | null {
    const distinct = this.distinctOf(text);
    if (distinct.length === 0) return null;
    const counts = new Map<number, number>();
    for (const line of distinct) {
      this.postings.forEach(line, (entry) => counts.set(entry, (counts.get(entry) ?? 0) + 1));
    }
    let best: ReReadMatch | null = null;
    for (const [entry, shared] of counts) {
      const theirs = this.distinctCounts[entry] ?? 0;
      if (shared < minShare * distinct.length || shared < minShare * theirs) continue;
      if (!best || shared > best.shared || (shared === best.shared && entry > best.entry)) {
        best = { entry, shared, share: shared / Math.max(distinct.length, theirs) };
      }
    }
    return best;
  }

  private distinctOf(text: string): Uint32Array {
    if (this.last?.text !== text) this.last = { text, distinct: distinctLines(text) };
    return this.last.distinct;
  }
}

/**
 * Line hash → the entries holding that line, in two typed arrays (open addressing, linear probing) rather
 * than a `Map<number, number[]>`. The index lives as long as its session and holds one slot per distinct
 * line ever sent, so its footprint is what a proxy with many live sessions pays: a Map spent ~90 bytes a
 * line (its table, a one-element array per line, and a boxed number for every hash above 2^30), this
 * table 9–18. Almost every line belongs to one entry, stored inline; the rare line seen in several
 * entries gets a list (capped at MAX_POSTINGS, past which it is no evidence).
 */
class LinePostings {
  #keys = new Uint32Array(256);
  // 0: empty slot; n > 0: the one entry n − 1; n < 0: lists[−n − 1].
  #values = new Int32Array(256);
  #used = 0;
  readonly #lists: number[][] = [];

  add(line: number, entry: number): void {
    // Filled up to 7/8 before doubling: a probe for an absent line (most lookups are for new text) then
    // visits ~30 slots (Knuth's linear-probing estimate), negligible beside hashing the line.
    if ((this.#used + 1) * 8 > this.#keys.length * 7) this.#grow();
    const slot = this.#slot(line);
    const value = this.#values[slot]!;
    if (value === 0) {
      this.#keys[slot] = line;
      this.#values[slot] = entry + 1;
      this.#used += 1;
    } else if (value > 0) {
      this.#lists.push([value - 1, entry]);
      this.#values[slot] = -this.#lists.length;
    } else {
      const list = this.#lists[-value - 1]!;
      if (list.length < MAX_POSTINGS) list.push(entry);
    }
  }

  /** Calls `visit` for each entry holding `line`, unless the line is too common to count. */
  forEach(line: number, visit: (entry: number) => void): void {
    const value = this.#values[this.#slot(line)]!;
    if (value > 0) visit(value - 1);
    else if (value < 0) {
      const list = this.#lists[-value - 1]!;
      if (list.length < MAX_POSTINGS) for (const entry of list) visit(entry);
    }
  }

  /** The slot holding `line`, or the empty slot where it would go. */
  #slot(line: number): number {
    const mask = this.#keys.length - 1;
    let slot = line & mask;
    while (this.#values[slot] !== 0 && this.#keys[slot] !== line) slot = (slot + 1) & mask;
    return slot;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Uint32Array(keys.length * 2);
    this.#values = new Int32Array(values.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (values[i] === 0) continue;
      const slot = this.#slot(keys[i]!);
      this.#keys[slot] = keys[i]!;
      this.#values[slot] = values[i]!;
    }
  }
}

/**
 * Lines compared without whitespace, quotes, `;` or `,`: a re-read after a formatter ran (re-indented,
 * re-spaced, quotes swapped, trailing commas added) still shares most of its lines with the earlier
 * version, so the structural comparison gets to see it. Each line is kept as a 32-bit hash (FNV-1a, in two
 * lanes), not a string: the index lives as long as a session, and a rare hash collision only nudges a
 * similarity estimate (the delta that is sent is always computed from the real texts).
 */
function distinctLines(text: string): Uint32Array {
  // The text as UTF-16 code units in a reused typed array: reading a 200 KB tool result's lines with
  // charCodeAt (each line a slice of the text, one more indirection per unit) took ~0.8 ms of the proxy's
  // event loop, this ~0.45 ms.
  const units = scratchCodeUnits(text);
  // A hashed line has at least MIN_LINE_CHARS units and ends at a '\n' or the text's end.
  const hashes = hashScratch(Math.floor(text.length / MIN_LINE_CHARS) + 1);
  let count = 0;
  let at = 0;
  while (at <= text.length) {
    // FNV-1a over the line's code units but the ignored ones: the hash of the line with them removed,
    // without making that string. Kept units alternate between two lanes, so that two multiplications
    // are in flight at once rather than each waiting for the one before.
    let even = 0x811c9dc5;
    let odd = 0x01000193;
    let kept = 0;
    for (; at < text.length; at++) {
      const unit = units[at]!;
      if (unit === 0x0a) break;
      if (unit < 0x80 ? ASCII_IGNORED[unit] === 1 : isIgnoredWide(unit)) continue;
      if ((kept & 1) === 0) even = Math.imul(even ^ unit, 0x01000193);
      else odd = Math.imul(odd ^ unit, 0x01000193);
      kept++;
    }
    at++;
    if (kept >= MIN_LINE_CHARS) hashes[count++] = Math.imul(even ^ (odd >>> 15), 0x85ebca6b) ^ odd;
  }
  // Sorted and deduplicated in a typed array: a Set grown line by line to a few thousand entries
  // reallocated its table as it went, fresh memory on the proxy's event loop for every new result.
  const sorted = hashes.subarray(0, count).sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i]!;
  return sorted.slice(0, distinct);
}

/**
 * The hash scratch is kept between texts up to this many bytes; a longer text gets an array of its own.
 * (The code units come from scratchCodeUnits, kept under the same bound.)
 */
const KEEP_SCRATCH_BYTES = 2 * 1024 * 1024;
let hashArray = new Uint32Array(0);

/** An array of at least `length` hashes: the kept one, or one of its own past KEEP_SCRATCH_BYTES. */
function hashScratch(length: number): Uint32Array {
  if (hashArray.length >= length) return hashArray;
  const hashes = new Uint32Array(Math.max(length, 1024));
  if (hashes.byteLength <= KEEP_SCRATCH_BYTES) hashArray = hashes;
  return hashes;
}

/** Per ASCII unit, 1 when it is ignored: see isIgnoredWide for the rest. */
const ASCII_IGNORED = (() => {
  const table = new Uint8Array(0x80);
  for (const unit of [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x22, 0x27, 0x3b, 0x2c]) table[unit] = 1;
  return table;
})();

/** Units from 0x80 on that JavaScript's `\s` matches (the ASCII ones, and `"`, `'`, `;`, `,`, are in ASCII_IGNORED). */
function isIgnoredWide(unit: number): boolean {
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}
