/**
 * The exact template of a run of lines with the same token structure: each line is cut into whitespace
 * runs and tokens (kept byte for byte, so tabs and runs of spaces survive); a part equal on every line is
 * constant text, any other part is a variable slot. A token slot keeps the prefix and suffix its values
 * share when these end at a word boundary (`[173.234.31.186]` → `[<*>]`, `blk_-1` / `blk_2` → `blk_<*>`),
 * so the table holds only what varies and a number is never cut in two.
 */

/** A folded run, for line-fold.ts. */
export interface RunTemplate {
  /** How many lines (from the start of the run) the template covers. */
  readonly lines: number;
  /** Constant text with `<*>` at each slot. */
  readonly template: string;
  /** Per line: its slot values joined by `separator`. */
  readonly rows: string[];
  readonly separator: string;
}

const SEPARATORS = ['|', '¦', '\t', '\u241f'];

/** Whitespace-separated parts of a line: `[ws, token, ws, token, …, ws]` (odd length, ws may be empty). */
export function splitParts(line: string): string[] {
  const parts: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    const ws = i;
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    parts.push(line.slice(ws, i));
    if (i >= n) return parts;
    const tok = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    parts.push(line.slice(tok, i));
  }
}

/** Number of whitespace-separated tokens (cheap, no allocation). */
export function tokenCount(line: string): number {
  let count = 0;
  let inToken = false;
  for (let i = 0; i < line.length; i++) {
    const space = isSpace(line.charCodeAt(i));
    if (!space && !inToken) count++;
    inToken = !space;
  }
  return count;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12 || c === 13 || c === 0xa0;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

/** The constant text of some lines with `<*>` at each slot, and each slot's value on each line. */
export interface LinesTemplate {
  readonly template: string;
  /** `slots[s][k]`: the value of slot `s` on the k-th line. */
  readonly slots: string[][];
}

/**
 * The exact template of the lines at `indices` (all with the same token count), or `null` when their
 * token counts differ or constant text would contain `<*>` (it would read as a slot). Identical lines give
 * a template without slots.
 */
export function templateOf(lines: readonly string[], indices: readonly number[]): LinesTemplate | null {
  const split = indices.map((i) => splitParts(lines[i]!));
  const width = split[0]!.length;
  for (const parts of split) if (parts.length !== width) return null;
  let template = '';
  const slots: string[][] = [];
  let constant = '';
  for (let p = 0; p < width; p++) {
    const first = split[0]![p]!;
    let equal = true;
    for (let k = 1; k < split.length && equal; k++) if (split[k]![p] !== first) equal = false;
    if (equal) {
      constant += first;
      continue;
    }
    const values = split.map((parts) => parts[p]!);
    const [pre, suf] = p % 2 === 1 ? sharedAffixes(values) : [0, 0];
    constant += first.slice(0, pre);
    template += `${constant}<*>`;
    constant = first.slice(first.length - suf);
    slots.push(values.map((v) => v.slice(pre, v.length - suf)));
  }
  template += constant;
  if (template.split('<*>').length - 1 !== slots.length) return null;
  return { template, slots };
}

/** A separator that occurs in none of the values (`|` first), or `null`. */
export function freeSeparator(slots: readonly (readonly string[])[]): string | null {
  if (slots.length <= 1) return '|';
  return SEPARATORS.find((sep) => slots.every((vs) => vs.every((v) => !v.includes(sep)))) ?? null;
}

/**
 * The template of `lines[from, from + count)`, which must all have the same token count; `null` when the
 * lines are all identical (a repeat, not a template), when constant text would contain `<*>`, or when no
 * separator character is free.
 */
export function runTemplate(lines: readonly string[], from: number, count: number): RunTemplate | null {
  const indices = Array.from({ length: count }, (_, k) => from + k);
  const found = templateOf(lines, indices);
  if (found === null || found.slots.length === 0) return null;
  const separator = freeSeparator(found.slots);
  if (separator === null) return null;
  const rows: string[] = [];
  for (let k = 0; k < count; k++) rows.push(found.slots.map((values) => values[k]!).join(separator));
  return { lines: count, template: found.template, rows, separator };
}

/** Lengths of the prefix and suffix every value shares, cut back so neither ends inside a word. */
function sharedAffixes(values: readonly string[]): [number, number] {
  const first = values[0]!;
  let minLen = first.length;
  for (const v of values) minLen = Math.min(minLen, v.length);
  let pre = 0;
  while (pre < minLen && values.every((v) => v.charCodeAt(pre) === first.charCodeAt(pre))) pre++;
  // Do not end the prefix inside a word: `4239|3` and `4239|5` share nothing readable.
  while (
    pre > 0 &&
    isWordChar(first.charCodeAt(pre - 1)) &&
    values.some((v) => isWordChar(v.charCodeAt(pre)))
  ) {
    pre--;
  }
  let suf = 0;
  while (
    suf < minLen - pre &&
    values.every((v) => v.charCodeAt(v.length - 1 - suf) === first.charCodeAt(first.length - 1 - suf))
  ) {
    suf++;
  }
  while (
    suf > 0 &&
    isWordChar(first.charCodeAt(first.length - suf)) &&
    values.some((v) => isWordChar(v.charCodeAt(v.length - suf - 1)))
  ) {
    suf--;
  }
  return [pre, suf];
}
