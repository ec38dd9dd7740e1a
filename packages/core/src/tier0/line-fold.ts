import { BLOCK_REF_HEADER, BlockIndex, expandBlockRef } from './block-refs.js';
import { freeSeparator, type RunTemplate, runTemplate, templateOf } from './run-template.js';

/**
 * Folding runs of log lines, exactly reversibly (spec: template mining, "collapses a run into one template
 * + a compact variable table — every variable is retained"; and run-length folding of repeated lines).
 *
 * The folded form, line by line:
 * - `[N lines: TEMPLATE]` followed by N rows: a run of consecutive lines of one template. `<*>` marks each
 *   variable in TEMPLATE; each row holds one line's variables in order, separated by `|` (or by the
 *   character named in `[N lines, cells split by "¦": …]` when a value contains `|`).
 * - `[repeated N×] LINE`: LINE, N times in a row.
 * - `[the N lines starting "PREFIX" again]`: a block of N lines that appeared earlier (block-refs.ts).
 * - `[N repeats of the next P lines; one row of values per repeat follows]`, then P template lines, then N
 *   rows: a group of P consecutive lines that repeats N times as a unit (a `Downloading` / `Downloaded`
 *   pair, a report block); each row holds the variables of one repeat, all P lines in order.
 * - `[the next N lines are one line's \r-separated updates]`, then N lines: one line that a progress bar
 *   or `git clone` rewrote in place thousands of times, its updates (the parts between carriage returns)
 *   folded like lines of their own (only with the `overwrites` option).
 * - any other line is an input line as it was; an input line that itself starts like a header (after any
 *   number of `\`) gets one more `\` in front, which the decoder removes.
 *
 * Only strictly consecutive lines fold together: a log is read in time order and interleaving carries
 * meaning (which request came between two retries), so lines are never moved. Protected lines (the
 * salience guard's error lines) are never folded and always appear verbatim.
 */

/** Options for {@link foldTemplateRuns} and {@link foldRepeats}. */
export interface FoldOptions {
  /** Per input line, 1 = must stay verbatim (never part of a fold). */
  readonly protect?: Uint8Array;
  /** Shortest run that folds: default 3 for template runs, 2 for repeated lines. */
  readonly minRun?: number;
  /** Template per line, when the caller mined them: lines of one template then also fold together. */
  readonly clusterOf?: Int32Array;
  /**
   * Fold the updates of a line rewritten in place (parts separated by a lone `\r`): for lines split at
   * `\n` only, where such a line keeps its carriage returns.
   */
  readonly overwrites?: boolean;
}

const HEADER_LIKE =
  /^\\*\[(?:\d+ lines[:,]|repeated \d+×\]|\d+ repeats of the next |the \d+ lines starting "|the next \d+ lines are one)/;
const ESCAPED_HEADER =
  /^\\+\[(?:\d+ lines[:,]|repeated \d+×\]|\d+ repeats of the next |the \d+ lines starting "|the next \d+ lines are one)/;
const OVERWRITE_HEADER = /^\[the next (\d+) lines are one line's \\r-separated updates\]$/;
/** Updates a rewritten line must have before they fold (a CRLF's `\r` at the very end is not one). */
const MIN_UPDATES = 4;
const GROUP_HEADER =
  /^\[(\d+) repeats of the next (\d+) lines; one row of values per repeat follows(?:, cells split by "(.)")?\]$/;
const TEMPLATE_HEADER = /^\[(\d+) lines(?:, cells split by "(.)")?: (.*)\]$/s;
const REPEAT_HEADER = /^\[repeated (\d+)×\] /;

/** Folds runs of consecutive lines of one template into a template line plus a table of their variables. */
export function foldTemplateRuns(lines: readonly string[], options: FoldOptions = {}): string[] {
  return foldLines(lines, { ...options, templates: true, repeats: false });
}

/** Folds runs of identical consecutive lines into `[repeated N×] LINE`. */
export function foldRepeats(lines: readonly string[], options: FoldOptions = {}): string[] {
  return foldLines(lines, { ...options, templates: false, repeats: true });
}

/** Both folds in one pass (one layer of escaping): template runs, and repeats where no template run is. */
export function foldLogLines(lines: readonly string[], options: FoldOptions = {}): string[] {
  return foldLines(lines, { ...options, templates: true, repeats: true });
}

interface EngineOptions extends FoldOptions {
  readonly templates: boolean;
  readonly repeats: boolean;
}

/** Longest group of lines that repeats as a unit (`Downloading` / `Downloaded` pairs, report blocks). */
const MAX_PERIOD = 8;

function foldLines(lines: readonly string[], options: EngineOptions): string[] {
  const n = lines.length;
  const protect = options.protect;
  const free = (k: number): boolean => protect === undefined || protect[k] !== 1;
  const minRun = Math.max(2, options.minRun ?? 3);
  const minRepeat = Math.max(2, options.minRun ?? 2);
  const templates = options.templates;
  const clusterOf = options.clusterOf;

  // Two lines fold into one template when they have the same token count and agree on at least half of
  // their tokens position by position, or (when the caller mined templates) share a template. A fold is
  // exact either way; it only has to be worth it, which the length check decides. Not mining here keeps
  // folding fast: the token comparison finds the same runs on real logs.
  const hashes = templates ? new TokenHashes(lines, free) : undefined;
  const blocks = hashes ? new BlockIndex(lines, free, hashes.lineHashes) : undefined;
  const compare = (a: number, b: number): boolean =>
    hashes!.count(a) === hashes!.count(b) &&
    ((clusterOf !== undefined && clusterOf[a] === clusterOf[b]) || hashes!.sharesHalf(a, b));
  // Answers for pairs `distance` apart are memoised: the run and period scans of neighbouring positions
  // ask about the same pairs.
  const memo = templates ? Array.from({ length: MAX_PERIOD + 1 }, () => new Int8Array(n)) : [];
  const alike = (a: number, b: number): boolean => {
    const d = b - a;
    if (d > MAX_PERIOD) return compare(a, b);
    const row = memo[d]!;
    if (row[b] === 0) row[b] = compare(a, b) ? 1 : 2;
    return row[b] === 1;
  };
  const out: string[] = [];
  let i = 0;
  while (i < n) {
    if (!free(i)) {
      out.push(escapeLine(lines[i]!));
      i++;
      continue;
    }
    if (options.overwrites === true) {
      const updates = foldOverwrites(lines[i]!, options);
      if (updates !== null) {
        append(out, updates);
        i++;
        continue;
      }
    }
    // A block seen earlier: one reference line, when it covers at least what a fold here would.
    const ref = blocks?.find(i);
    let end = i + 1;
    if (templates) {
      // A run of one template, and the best run of a group of `period` lines repeating as a unit.
      while (end < n && free(end) && alike(i, end)) end++;
      let period = 1;
      let repeats = end - i;
      for (let p = 2; p <= MAX_PERIOD && i + 2 * p <= n; p++) {
        let unitFree = true;
        for (let k = i; k < i + p && unitFree; k++) unitFree = free(k);
        if (!unitFree) break;
        let j = i + p;
        while (j < n && free(j) && alike(j - p, j)) j++;
        const reps = Math.floor((j - i) / p);
        if (reps >= minRun && p * reps > period * repeats) {
          period = p;
          repeats = reps;
        }
      }
      if (ref != null && ref.length >= period * repeats && ref.line.length < lengthOf(lines, i, ref.length)) {
        out.push(ref.line);
        i += ref.length;
        continue;
      }
      if (period > 1) {
        const group = groupFold(lines, i, period, repeats);
        if (group !== null && foldedSize(group) < lengthOf(lines, i, period * repeats)) {
          append(out, group);
          i += period * repeats;
          continue;
        }
        // Not worth it: the whole region goes out line by line (scanning it again from each of its lines
        // would make a long unfoldable region quadratic).
        end = Math.max(end, i + period * repeats);
      } else if (end - i >= minRun && !allSame(lines, i, end)) {
        const folded = runTemplate(lines, i, end - i);
        if (folded !== null && foldedLength(folded) < lengthOf(lines, i, end - i)) {
          out.push(headerOf(folded));
          append(out, folded.rows);
          i = end;
          continue;
        }
      }
    }
    // No fold here: lines go out one by one, identical neighbours as repeats.
    while (i < end) {
      const line = lines[i]!;
      let same = 1;
      while (i + same < n && free(i + same) && lines[i + same] === line) same++;
      if (options.repeats && same >= minRepeat) {
        const header = `[repeated ${same}×] ${line}`;
        if (header.length < same * (line.length + 1)) {
          out.push(header);
          i += same;
          continue;
        }
      }
      out.push(escapeLine(line));
      i++;
    }
  }
  return out;
}

/** A line's `\r`-separated updates folded under their header, when it has enough and that is shorter. */
function foldOverwrites(line: string, options: EngineOptions): string[] | null {
  let updates = 0;
  for (let c = line.indexOf('\r'); c >= 0 && c < line.length - 1; c = line.indexOf('\r', c + 1)) updates++;
  if (updates < MIN_UPDATES) return null;
  const { templates, repeats, minRun } = options;
  const inner = foldLines(line.split('\r'), { templates, repeats, ...(minRun !== undefined && { minRun }) });
  const header = `[the next ${inner.length} lines are one line's \\r-separated updates]`;
  return header.length + foldedSize(inner) < line.length ? [header, ...inner] : null;
}

/**
 * `repeats` consecutive groups of `period` lines folded: a header, the group's `period` template lines,
 * then one row per repeat with the values of all its lines. `null` when a template cannot be written.
 */
function groupFold(lines: readonly string[], from: number, period: number, repeats: number): string[] | null {
  const templates: string[] = [];
  const slots: string[][] = [];
  for (let k = 0; k < period; k++) {
    const indices = Array.from({ length: repeats }, (_, r) => from + k + r * period);
    const found = templateOf(lines, indices);
    if (found === null) return null;
    templates.push(found.template);
    slots.push(...found.slots);
  }
  const separator = freeSeparator(slots);
  if (separator === null) return null;
  const split = separator === '|' ? '' : `, cells split by "${separator}"`;
  const out = [
    `[${repeats} repeats of the next ${period} lines; one row of values per repeat follows${split}]`,
    ...templates,
  ];
  if (slots.length > 0) {
    for (let r = 0; r < repeats; r++) out.push(slots.map((values) => values[r]!).join(separator));
  }
  return out;
}

/** `out.push(...lines)` without passing a hundred thousand rows as call arguments (a stack overflow). */
function append(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

function foldedSize(folded: readonly string[]): number {
  let total = 0;
  for (const line of folded) total += line.length + 1;
  return total;
}

/**
 * Every line's tokens hashed once (FNV-1a, 32 bits), so comparing two lines token by token is comparing
 * numbers. A collision only makes two lines look more alike; folds stay exact either way. Lines that
 * must stay verbatim are never compared (a run and a repeating unit consist of free lines only), so their
 * tokens are not hashed: they count as lines of no token. The same pass hashes each whole line, which the
 * block index interns lines by.
 */
class TokenHashes {
  /** Per line, the FNV-1a hash of all of it, whitespace included. */
  readonly lineHashes: Int32Array;
  private readonly hashes: Int32Array;
  private readonly starts: Int32Array;

  constructor(lines: readonly string[], free: (k: number) => boolean) {
    this.starts = new Int32Array(lines.length + 1);
    this.lineHashes = new Int32Array(lines.length);
    let hashes: Int32Array<ArrayBuffer> = new Int32Array(Math.max(16, lines.length * 16));
    let at = 0;
    for (let k = 0; k < lines.length; k++) {
      this.starts[k] = at;
      const line = lines[k]!;
      let whole = 0x811c9dc5;
      if (!free(k)) {
        for (let i = 0; i < line.length; i++) whole = Math.imul(whole ^ line.charCodeAt(i), 0x01000193);
        this.lineHashes[k] = whole;
        continue;
      }
      let h = 0;
      let inToken = false;
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i);
        whole = Math.imul(whole ^ c, 0x01000193);
        // most units are above the space: one comparison turns them away
        if (c <= 32 ? c === 32 || c === 9 || c === 11 || c === 12 || c === 13 : c === 0xa0) {
          if (inToken) {
            if (at === hashes.length) hashes = grow(hashes);
            hashes[at++] = h;
          }
          inToken = false;
        } else {
          if (!inToken) h = 0x811c9dc5;
          h = Math.imul(h ^ c, 0x01000193);
          inToken = true;
        }
      }
      if (inToken) {
        if (at === hashes.length) hashes = grow(hashes);
        hashes[at++] = h;
      }
      this.lineHashes[k] = whole;
    }
    this.starts[lines.length] = at;
    this.hashes = hashes;
  }

  /** Number of tokens on line `k`. */
  count(k: number): number {
    return this.starts[k + 1]! - this.starts[k]!;
  }

  /** Do lines `a` and `b` (same token count) agree on at least half of their tokens, position by position? */
  sharesHalf(a: number, b: number): boolean {
    const sa = this.starts[a]!;
    const sb = this.starts[b]!;
    const count = this.starts[a + 1]! - sa;
    const need = (count + 1) >> 1;
    let same = 0;
    for (let k = 0; k < count; k++) {
      if (this.hashes[sa + k] === this.hashes[sb + k] && ++same >= need) return true;
      if (k + 1 - same > count - need) return false;
    }
    return same >= need;
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function allSame(lines: readonly string[], from: number, to: number): boolean {
  for (let k = from + 1; k < to; k++) if (lines[k] !== lines[from]) return false;
  return true;
}

function headerOf(folded: RunTemplate): string {
  return folded.separator === '|'
    ? `[${folded.lines} lines: ${folded.template}]`
    : `[${folded.lines} lines, cells split by "${folded.separator}": ${folded.template}]`;
}

function foldedLength(folded: RunTemplate): number {
  let total = headerOf(folded).length + 1;
  for (const row of folded.rows) total += row.length + 1;
  return total;
}

function lengthOf(lines: readonly string[], from: number, count: number): number {
  let total = 0;
  for (let k = from; k < from + count; k++) total += lines[k]!.length + 1;
  return total;
}

function escapeLine(line: string): string {
  return line.charCodeAt(0) === 91 || line.charCodeAt(0) === 92
    ? HEADER_LIKE.test(line)
      ? `\\${line}`
      : line
    : line;
}

/** Exact inverse of {@link foldTemplateRuns}, {@link foldRepeats} and {@link foldLogLines}. */
export function unfoldLines(folded: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < folded.length) {
    const line = folded[i]!;
    const first = line.charCodeAt(0);
    if (first === 92 && ESCAPED_HEADER.test(line)) {
      out.push(line.slice(1));
      i++;
      continue;
    }
    if (first !== 91) {
      out.push(line);
      i++;
      continue;
    }
    const repeat = REPEAT_HEADER.exec(line);
    if (repeat !== null) {
      const text = line.slice(repeat[0].length);
      for (let k = Number(repeat[1]); k > 0; k--) out.push(text);
      i++;
      continue;
    }
    const overwrite = OVERWRITE_HEADER.exec(line);
    if (overwrite !== null) {
      const count = Number(overwrite[1]);
      if (i + 1 + count > folded.length) {
        throw new Error(`fold: ${count} updates announced at line ${i + 1}, input ended`);
      }
      out.push(unfoldLines(folded.slice(i + 1, i + 1 + count)).join('\r'));
      i += count + 1;
      continue;
    }
    const ref = BLOCK_REF_HEADER.exec(line);
    if (ref !== null) {
      expandBlockRef(out, Number(ref[1]), ref[2]!);
      i++;
      continue;
    }
    const group = GROUP_HEADER.exec(line);
    if (group !== null) {
      i = unfoldGroup(folded, i, Number(group[1]), Number(group[2]), group[3] ?? '|', out);
      continue;
    }
    const header = TEMPLATE_HEADER.exec(line);
    if (header === null) {
      out.push(line);
      i++;
      continue;
    }
    const count = Number(header[1]);
    const separator = header[2] ?? '|';
    const constants = header[3]!.split('<*>');
    const slots = constants.length - 1;
    for (let r = 1; r <= count; r++) {
      const row = folded[i + r];
      if (row === undefined) throw new Error(`fold: ${count} rows announced at line ${i + 1}, input ended`);
      const values = slots === 1 ? [row] : row.split(separator);
      if (values.length !== slots) {
        throw new Error(`fold: row ${r} after line ${i + 1} has ${values.length} values, not ${slots}`);
      }
      let text = constants[0]!;
      for (let s = 0; s < slots; s++) text += values[s]! + constants[s + 1]!;
      out.push(text);
    }
    i += count + 1;
  }
  return out;
}

/** Decodes a group fold whose header is at `at`; returns the index after it. */
function unfoldGroup(
  folded: readonly string[],
  at: number,
  repeats: number,
  period: number,
  separator: string,
  out: string[],
): number {
  const templates = folded.slice(at + 1, at + 1 + period).map((t) => t.split('<*>'));
  if (templates.length !== period)
    throw new Error(`fold: ${period} template lines announced at line ${at + 1}`);
  const slots = templates.reduce((sum, t) => sum + t.length - 1, 0);
  const rowsAt = at + 1 + period;
  for (let r = 0; r < repeats; r++) {
    let values: string[] = [];
    if (slots > 0) {
      const row = folded[rowsAt + r];
      if (row === undefined)
        throw new Error(`fold: ${repeats} rows announced at line ${at + 1}, input ended`);
      values = slots === 1 ? [row] : row.split(separator);
      if (values.length !== slots)
        throw new Error(`fold: row ${r + 1} after line ${at + 1} has ${values.length} values, not ${slots}`);
    }
    let v = 0;
    for (const constants of templates) {
      let text = constants[0]!;
      for (let s = 1; s < constants.length; s++) text += values[v++]! + constants[s]!;
      out.push(text);
    }
  }
  return rowsAt + (slots > 0 ? repeats : 0);
}

/** Exact inverse of {@link foldTemplateRuns}. */
export const unfoldTemplateRuns: (folded: readonly string[]) => string[] = unfoldLines;
/** Exact inverse of {@link foldRepeats}. */
export const unfoldRepeats: (folded: readonly string[]) => string[] = unfoldLines;
