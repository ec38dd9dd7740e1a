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

export const BLOCK_REF_HEADER = /^\[the (\d+) lines starting "(.*)" again\]$/s;

/** A reference found for the lines at some position. */
export interface BlockRef {
  readonly length: number;
  readonly line: string;
}

/** Finds, for a position, the longest earlier block it repeats. Build once per text. */
export class BlockIndex {
  private readonly windows = new Map<number, number[]>();
  /** Each line interned to a number (equal lines, equal numbers): windows are keyed by numbers. */
  private readonly ids: Int32Array;
  private indexed = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly free: (k: number) => boolean,
  ) {
    const seen = new Map<string, number>();
    this.ids = new Int32Array(lines.length);
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!;
      let id = seen.get(line);
      if (id === undefined) {
        id = seen.size;
        seen.set(line, id);
      }
      this.ids[k] = id;
    }
  }

  /** The reference for the block starting at `at` (every earlier line is already indexed), or null. */
  find(at: number): BlockRef | null {
    this.indexUpTo(at);
    const lines = this.lines;
    if (at + WINDOW > lines.length) return null;
    const candidates = this.windows.get(this.key(at));
    if (candidates === undefined) return null;
    let bestStart = -1;
    let bestLength = 0;
    // Latest candidates first (the decoder resolves to the latest match, and nearer copies read better),
    // at most MAX_CANDIDATES of them: a window repeated thousands of times must not make this quadratic.
    for (let c = candidates.length - 1; c >= Math.max(0, candidates.length - MAX_CANDIDATES); c--) {
      const start = candidates[c]!;
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
      const list = this.windows.get(key);
      if (list === undefined) this.windows.set(key, [this.indexed]);
      else list.push(this.indexed);
    }
  }

  /** A window's key: its three line ids mixed into one exact double (collisions only cost a lookup). */
  private key(at: number): number {
    const ids = this.ids;
    return (ids[at]! * 0x100000 + ids[at + 1]!) * 97 + ids[at + 2]!;
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
      let clash = false;
      // the prefix's last unit, read inline, turns most lines away before the call that compares the
      // rest (lines often share their first units: a `#` where a timestamp was lifted, an indent)
      const end = prefix.length - 1;
      const last = prefix.charCodeAt(end);
      for (let k = start + 1; k < at && !clash; k++) {
        const line = this.lines[k]!;
        clash = line.charCodeAt(end) === last && line.startsWith(prefix);
      }
      if (!clash) return prefix;
      if (size >= line.length) return null;
      size = Math.min(line.length, size * 2);
    }
  }
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
