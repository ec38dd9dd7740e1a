/**
 * Back-references to blocks of lines seen earlier in the same text: a CI log that prints the same test
 * report, stack trace or dependency list twice pays for it once. The second copy becomes one line,
 *
 *   [the 16 lines starting "Tests run: 5, Failures: 1, Errors: 0" again]
 *
 * which reads as what it is and decodes exactly: the decoder copies the 16 lines that start at the latest
 * line so far beginning with the quoted text. The encoder only writes a reference after checking that this
 * rule finds the right copy (the quoted prefix grows until it does).
 *
 * Blocks are found through a map from each window of {@link WINDOW} lines to where it occurred, then
 * extended line by line: linear in the text for ordinary logs.
 */

/** Lines a block must have at least (and the window the index is keyed by). */
export const WINDOW = 3;
/** The shortest quoted prefix (longer when needed to point at the right line). */
const MIN_PREFIX = 24;
/** Earlier occurrences of a window tried per position. */
const MAX_CANDIDATES = 16;
/** How far back a reference may point, in lines (the prefix check scans the lines in between). */
const MAX_DISTANCE = 50_000;
/** Characters of a line's start that the prefix check indexes (a prefix is never shorter, bar short lines). */
const HEAD = MIN_PREFIX;

export const BLOCK_REF_HEADER = /^\[the (\d+) lines starting "(.*)" again\]$/s;

/** A reference found for the lines at some position. */
export interface BlockRef {
  readonly length: number;
  readonly line: string;
}

/** Finds, for a position, the longest earlier block it repeats. Build once per text. */
export class BlockIndex {
  /** Each line interned to a number (equal lines, equal numbers): windows are keyed by numbers. */
  private readonly ids: Int32Array;
  /**
   * The windows indexed so far, chained by hash: `head[slot]` is the latest position whose window hashes
   * to `slot`, `earlier[position]` the one before it in the same chain (-1 ends a chain), and
   * `keys[position]` the window's exact key. Typed arrays rather than a Map of lists: a key is too large
   * for a small integer, so a Map boxed every one of them, and a list per window cost an allocation.
   */
  private readonly head: Int32Array;
  private readonly earlier: Int32Array;
  private readonly keys: Float64Array;
  private readonly shift: number;
  private indexed = 0;
  /** Per line, the next line with the same first {@link HEAD} characters (hashed), -1 if none; built on first use. */
  private sameHead: Int32Array | null = null;

  /** `lineHashes[k]`: any 32-bit hash of line k's whole text (equal lines, equal hashes). */
  constructor(
    private readonly lines: readonly string[],
    private readonly free: (k: number) => boolean,
    lineHashes: Int32Array,
  ) {
    let bits = 4;
    while (1 << bits < lines.length * 2) bits++;
    this.shift = 32 - bits;
    this.ids = internLines(lines, lineHashes, bits);
    this.head = new Int32Array(1 << bits).fill(-1);
    this.earlier = new Int32Array(lines.length);
    this.keys = new Float64Array(lines.length);
  }

  /** The reference for the block starting at `at` (every earlier line is already indexed), or null. */
  find(at: number): BlockRef | null {
    this.indexUpTo(at);
    const lines = this.lines;
    if (at + WINDOW > lines.length) return null;
    const key = this.key(at);
    let bestStart = -1;
    let bestLength = 0;
    // Latest candidates first (the decoder resolves to the latest match, and nearer copies read better),
    // at most MAX_CANDIDATES of them: a window repeated thousands of times must not make this quadratic.
    let tried = 0;
    for (
      let start = this.head[this.slotOf(key)]!;
      start >= 0 && tried < MAX_CANDIDATES;
      start = this.earlier[start]!
    ) {
      if (this.keys[start] !== key) continue;
      tried++;
      let length = 0;
      while (
        at + length < lines.length &&
        start + length < at &&
        this.free(at + length) &&
        this.ids[start + length] === this.ids[at + length]
      ) {
        length++;
      }
      if (length > bestLength) {
        bestLength = length;
        bestStart = start;
      }
    }
    if (bestLength < WINDOW || at - bestStart > MAX_DISTANCE) return null;
    const prefix = this.prefixFor(bestStart, at);
    if (prefix === null) return null;
    return { length: bestLength, line: `[the ${bestLength} lines starting "${prefix}" again]` };
  }

  /** Records every window that starts before `at` (so references only point backwards). */
  private indexUpTo(at: number): void {
    const last = Math.min(at, this.lines.length - WINDOW + 1);
    for (; this.indexed < last; this.indexed++) {
      const key = this.key(this.indexed);
      const slot = this.slotOf(key);
      this.keys[this.indexed] = key;
      this.earlier[this.indexed] = this.head[slot]!;
      this.head[slot] = this.indexed;
    }
  }

  /** A window's key: its three line ids mixed into one exact double (collisions only cost a lookup). */
  private key(at: number): number {
    const ids = this.ids;
    return (ids[at]! * 0x100000 + ids[at + 1]!) * 97 + ids[at + 2]!;
  }

  /** The chain a key hashes to: its low and high 32 bits mixed (keys are integers below 2^53). */
  private slotOf(key: number): number {
    const high = Math.floor(key / 0x100000000);
    return (Math.imul(key >>> 0, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b)) >>> this.shift;
  }

  /**
   * The shortest prefix (at least MIN_PREFIX characters, whole words) of `lines[start]` that no line in
   * (start, at) begins with, so the decoder's "latest line starting with it" is `start`; null if none.
   */
  private prefixFor(start: number, at: number): string | null {
    const line = this.lines[start]!;
    if (line.trim().length === 0) return null;
    let size = Math.min(line.length, MIN_PREFIX);
    for (;;) {
      // End on a word boundary when possible: a prefix cut mid-word reads badly.
      while (size < line.length && /\w/.test(line[size - 1]!) && /\w/.test(line[size]!)) size++;
      const prefix = line.slice(0, size);
      if (!this.clashes(prefix, start, at)) return prefix;
      if (size >= line.length) return null;
      size = Math.min(line.length, size * 2);
    }
  }

  /** Does a line in (start, at) begin with `prefix`, a prefix of `lines[start]`? */
  private clashes(prefix: string, start: number, at: number): boolean {
    // the prefix's last unit, read inline, turns most lines away before the call that compares the rest
    const end = prefix.length - 1;
    const last = prefix.charCodeAt(end);
    const lines = this.lines;
    if (prefix.length < HEAD) {
      for (let k = start + 1; k < at; k++)
        if (lines[k]!.charCodeAt(end) === last && lines[k]!.startsWith(prefix)) return true;
      return false;
    }
    // Only a line that shares the first HEAD characters can begin with the prefix: those are chained, so a
    // reference far back reads the few lines like it in between rather than every line.
    const next = this.sameHead ?? this.chainHeads();
    for (let k = next[start]!; k >= 0 && k < at; k = next[k]!) {
      if (lines[k]!.charCodeAt(end) === last && lines[k]!.startsWith(prefix)) return true;
    }
    return false;
  }

  /** Links each line of at least HEAD characters to the next line whose first HEAD characters hash alike. */
  private chainHeads(): Int32Array {
    const lines = this.lines;
    const next = new Int32Array(lines.length).fill(-1);
    // hash (below 2^30, a small integer) → the earliest line after the current one with it
    const later = new Map<number, number>();
    for (let k = lines.length - 1; k >= 0; k--) {
      const line = lines[k]!;
      if (line.length < HEAD) continue;
      let h = 0x811c9dc5;
      for (let i = 0; i < HEAD; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
      h &= 0x3fffffff;
      next[k] = later.get(h) ?? -1;
      later.set(h, k);
    }
    this.sameHead = next;
    return next;
  }
}

/**
 * Each line's id: equal lines get equal ids, numbered in order of first appearance. Looked up by the
 * caller's hashes in an open-addressing table of `2^bits` slots (at least twice the lines): a Map keyed
 * by the strings would hash every line again.
 */
function internLines(lines: readonly string[], lineHashes: Int32Array, bits: number): Int32Array {
  const ids = new Int32Array(lines.length);
  // per slot, the first line with that text, or -1
  const first = new Int32Array(1 << bits).fill(-1);
  const mask = (1 << bits) - 1;
  let next = 0;
  for (let k = 0; k < lines.length; k++) {
    const hash = lineHashes[k]!;
    let slot = Math.imul(hash, 0x9e3779b1) >>> (32 - bits);
    for (;;) {
      const j = first[slot]!;
      if (j < 0) {
        first[slot] = k;
        ids[k] = next++;
        break;
      }
      if (lineHashes[j] === hash && lines[j] === lines[k]) {
        ids[k] = ids[j]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return ids;
}

/** Appends the block a reference names to `out` (the lines decoded so far). */
export function expandBlockRef(out: string[], length: number, prefix: string): void {
  let start = -1;
  for (let k = out.length - 1; k >= 0; k--) {
    if (out[k]!.startsWith(prefix)) {
      start = k;
      break;
    }
  }
  if (start < 0 || start + length > out.length) {
    throw new Error(`fold: no earlier block of ${length} lines starts with ${JSON.stringify(prefix)}`);
  }
  for (let k = 0; k < length; k++) out.push(out[start + k]!);
}
