import { hasEnvelope, splitEnvelope } from '../pipeline/tool-envelope.js';
import { findLineNumbers, gutterOf, type LineNumbers, startsWithGutter } from '../tier0/line-numbers.js';

/**
 * A tool result as the session layer compares it with earlier ones: the client's wrapper set aside
 * (Codex's exec header carries a wall time that differs on every run) and a file read's line numbers
 * cut off (an edit that inserts a line renumbers every line after it, and a partial read numbers from
 * its offset), so that a re-read is matched and diffed on what the file says.
 */
export class ReadView {
  /** The client's lines before and after the tool's output (see splitEnvelope). */
  readonly prefix: string;
  readonly suffix: string;
  /** The tool's output as sent, line numbers included. */
  readonly body: string;
  /** The gutter of `body`, if it has one. */
  readonly numbers: LineNumbers | null;
  /** `body` without its gutter: what re-reads are indexed and diffed on. */
  readonly plain: string;
  #bodyStarts: number[] | undefined;
  #plainStarts: number[] | undefined;
  /** The number of lines of `plain` (and of `body`): a gutter is cut off line by line. */
  readonly lineCount: number;

  constructor(text: string) {
    const envelope = splitEnvelope(text);
    this.prefix = envelope.prefix;
    this.suffix = envelope.suffix;
    this.body = envelope.body;
    // Lines end at '\n' here (a '\r' stays part of its line), as in the re-read index; a gutter is
    // at the start of a line either way. Most outputs have none, and their first line says so: only a
    // body that starts with one is split (the ~3,000 line strings of a 200 KB result were made on the
    // proxy's event loop for every new result, only to be dropped).
    const firstEnd = this.body.indexOf('\n');
    const lines = startsWithGutter(firstEnd < 0 ? this.body : this.body.slice(0, firstEnd))
      ? this.body.split('\n')
      : null;
    this.numbers = lines === null ? null : findLineNumbers(lines);
    this.plain = lines === null || this.numbers === null ? this.body : stripGutter(lines, this.numbers);
    this.lineCount = lines === null ? lineCount(this.body) : lines.length;
  }

  /** Whether the text had a wrapper or a gutter (else every view is the text itself). */
  get wrapped(): boolean {
    return this.numbers !== null || hasEnvelope(this);
  }

  /** The number of the first line (1 when the body is not numbered). */
  get firstNumber(): number {
    return this.numbers?.first ?? 1;
  }

  /** The text again, with `inner` in place of the tool's output. */
  wrap(inner: string): string {
    return this.prefix + inner + this.suffix;
  }

  /**
   * The text again with a one-line reference in place of the tool's output: the output's last line
   * break stays, so a client's lines after it still start where they did.
   */
  wrapLine(reference: string): string {
    const end = this.suffix.length > 0 ? (/\r?\n$/.exec(this.body)?.[0] ?? '') : '';
    return this.prefix + reference + end + this.suffix;
  }

  /** Length of line `i`'s gutter (0 past the numbered lines). */
  gutterLength(i: number): number {
    return this.numbers !== null && i < this.numbers.count ? gutterOf(this.numbers, i).length : 0;
  }

  /** Offset in `body` where line `i` starts (its gutter included). */
  bodyLineStart(i: number): number {
    this.#bodyStarts ??= lineStarts(this.body);
    return i < this.#bodyStarts.length ? this.#bodyStarts[i]! : this.body.length;
  }

  /**
   * The offset in `body` of an offset in `plain`: a line's start maps to the start of the numbered line
   * (its gutter included), any other offset to the same character after the gutter.
   */
  toBody(plainOffset: number): number {
    const [line, column] = this.#locate(plainOffset);
    return column === 0
      ? this.bodyLineStart(line)
      : this.bodyLineStart(line) + this.gutterLength(line) + column;
  }

  /** Like toBody, but a line's start maps to just after its gutter (where its text starts). */
  toBodyText(plainOffset: number): number {
    const [line, column] = this.#locate(plainOffset);
    return this.bodyLineStart(line) + this.gutterLength(line) + column;
  }

  #locate(plainOffset: number): [number, number] {
    if (this.numbers === null) return [0, plainOffset];
    this.#plainStarts ??= lineStarts(this.plain);
    const starts = this.#plainStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= plainOffset) lo = mid;
      else hi = mid - 1;
    }
    return [lo, plainOffset - starts[lo]!];
  }
}

/** How many '\n'-terminated lines `text` has (one more than its '\n's). */
function lineCount(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** Offsets where each '\n'-terminated line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function stripGutter(lines: readonly string[], numbers: LineNumbers): string {
  return lines
    .map((line, i) => (i < numbers.count ? line.slice(gutterOf(numbers, i).length) : line))
    .join('\n');
}
