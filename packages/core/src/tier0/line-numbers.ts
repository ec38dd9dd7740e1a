import { splitSegments } from '../pipeline/lines.js';

/**
 * A line-number gutter: what a file-reading tool puts in front of each line. Claude Code's Read tool
 * prints `1\tline` (recorded from 2.1.165 and 2.1.332; some versions wrote `     1→line`), `cat -n` and
 * `nl -ba` right-align the number in six columns before the tab (`     1\tline`). The numbers count up by
 * one from `first` over the block's first `count` lines; what follows (a note the client appends) has none.
 */
export interface LineNumbers {
  /** The number on the first line (1, or the offset of a partial read). */
  readonly first: number;
  /** How many leading lines carry a number. */
  readonly count: number;
  /** The field the number is right-aligned in (0: no padding). */
  readonly width: number;
  /** What follows the number. */
  readonly separator: '\t' | '→';
}

/** Fewer numbered lines than this are not taken as a gutter: a short table may start with 1, 2. */
const MIN_NUMBERED = 3;
const FIRST_GUTTER = /^( *)(\d{1,9})(\t|→)/;

/** The gutter of one line: its number formatted as the block's first line formats it. */
export function gutterOf(numbers: LineNumbers, index: number): string {
  return String(numbers.first + index).padStart(numbers.width) + numbers.separator;
}

/**
 * Whether a text's first line starts with a gutter: if not, the text has none (see findLineNumbers), and
 * the caller need not split it into lines to find out.
 */
export function startsWithGutter(firstLine: string): boolean {
  return FIRST_GUTTER.test(firstLine);
}

/**
 * The line-number gutter on `lines` (without terminators), or null. Recognised only when every line of
 * the run carries exactly the next number in the first line's format, so stripping and re-adding it is
 * exact by construction; the run ends at the first line that does not.
 */
export function findLineNumbers(lines: readonly string[]): LineNumbers | null {
  const head = FIRST_GUTTER.exec(lines[0] ?? '');
  if (!head) return null;
  const first = Number(head[2]);
  // padded: the field is the spaces plus the digits; unpadded: none (numbers only ever grow, so a
  // wide-enough first number reads the same either way)
  const width = head[1]!.length > 0 ? head[1]!.length + head[2]!.length : 0;
  const separator = head[3] as LineNumbers['separator'];
  const numbers = { first, count: 0, width, separator };
  let count = 0;
  while (count < lines.length && lines[count]!.startsWith(gutterOf(numbers, count))) count++;
  return count >= MIN_NUMBERED ? { ...numbers, count } : null;
}

/** `lines` with the gutter cut off the numbered ones (the others as they are). */
export function withoutLineNumbers(lines: readonly string[], numbers: LineNumbers | null): string[] {
  if (numbers === null) return [...lines];
  return lines.map((line, i) => (i < numbers.count ? line.slice(gutterOf(numbers, i).length) : line));
}

/** A text with its gutter removed, and the gutter to put back. */
export interface Unnumbered {
  readonly text: string;
  readonly numbers: LineNumbers;
}

/** `text` without its line-number gutter (lines end at `\r\n`, `\r` or `\n`); null when it has none. */
export function stripLineNumbers(text: string): Unnumbered | null {
  const { segments, lines } = splitSegments(text);
  const numbers = findLineNumbers(lines);
  if (numbers === null) return null;
  let out = '';
  for (let i = 0; i < segments.length; i++) {
    out += i < numbers.count ? segments[i]!.slice(gutterOf(numbers, i).length) : segments[i]!;
  }
  // A line ending in a lone '\r' before an empty numbered line would read back as one '\r\n' line:
  // such a text keeps its gutter rather than risk a wrong decode.
  if (restoreLineNumbers(out, numbers) !== text) return null;
  return { text: out, numbers };
}

/** Puts the gutter back on the first `numbers.count` lines: `restoreLineNumbers(stripped) === text`. */
export function restoreLineNumbers(text: string, numbers: LineNumbers): string {
  const { segments } = splitSegments(text);
  let out = '';
  for (let i = 0; i < segments.length; i++) {
    out += i < numbers.count ? gutterOf(numbers, i) + segments[i]! : segments[i]!;
  }
  // a numbered last line that was empty leaves no segment once its gutter is gone
  for (let i = segments.length; i < numbers.count; i++) out += gutterOf(numbers, i);
  return out;
}

/**
 * The note a lossless re-encoding puts first when it removed a gutter: which lines were numbered and
 * how, in printf notation (`%6d\t`), so a reader can still name a line and the decoder can put it back.
 */
export function formatLineNumbersNote(numbers: LineNumbers): string {
  const format = `%${numbers.width > 0 ? numbers.width : ''}d${numbers.separator === '\t' ? '\\t' : '→'}`;
  const last = numbers.first + numbers.count - 1;
  return `<< line numbers ${numbers.first}–${last} ("${format}") removed from the lines below >>`;
}

const NOTE = /^<< line numbers (\d+)–(\d+) \("%(\d*)d(\\t|→)"\) removed from the lines below >>\n/;

/** The gutter a note describes and the text after the note; null when the text does not start with one. */
export function parseLineNumbersNote(text: string): { numbers: LineNumbers; body: string } | null {
  const m = NOTE.exec(text);
  if (!m) return null;
  const first = Number(m[1]);
  const numbers: LineNumbers = {
    first,
    count: Number(m[2]) - first + 1,
    width: m[3] === '' ? 0 : Number(m[3]),
    separator: m[4] === '\\t' ? '\t' : '→',
  };
  return { numbers, body: text.slice(m[0].length) };
}
