import type { ContentKind } from '@distil/contract';
import { canonicalJson } from './canonical-json.js';
import { compactColumnar, expandColumnar } from './columnar.js';
import { foldLogLines, unfoldLines } from './line-fold.js';
import {
  formatLineNumbersNote,
  parseLineNumbersNote,
  restoreLineNumbers,
  stripLineNumbers,
} from './line-numbers.js';
import { stripStyling } from './terminal-styling.js';
import { aliasRepeats, formatAliasLegend, parseAliasLegend, restoreAliases } from './text-aliases.js';
import {
  extractVolatile,
  formatVolatileTable,
  parseVolatileTable,
  restoreVolatile,
  type VolatileExtraction,
} from './volatile-fields.js';

/**
 * Tier 0 as one call: the lossless transforms that apply to a block's kind, in the order that works.
 * - any kind: a line-number gutter (a file read's `     N\t`, see line-numbers.ts) removed first and
 *   described in a note on the first line — numbered on every line, no two lines look alike to the
 *   folds below; a numbered JSON file is then treated as lines (its numbers name the file's lines);
 * - json (and schema): canonical JSON (key order — not byte-invertible), then columnar record tables;
 * - log and tool_output: template runs and repeated lines folded (line-fold.ts), protected lines verbatim;
 * - volatile-field extraction (timestamps, UUIDs, ids lifted into a trailing table): by default for logs
 *   and tool output when it makes the text shorter (`volatile: 'auto'`); always with `volatile: true`.
 * - terminal styling (colour and erase-line codes) removed from logs, tool output and diffs
 *   (terminal-styling.ts) — like canonical JSON, equal in what it shows, not in its bytes;
 * - long texts repeated (path and URL prefixes, long names) written once in a legend and then as a
 *   two-character shorthand, for JSON, logs and tool output (text-aliases.ts).
 * Other kinds (source, diff, doc, chat) are left alone unless `volatile` is set: folding similar code or
 * prose lines would hurt reading more than it saves.
 */

/** A tier-0 transform, in the order they were applied. */
export type LosslessTransform =
  /** A line-number gutter removed; the first line says which lines had one and its format. */
  | 'line-numbers'
  | 'canonical-json'
  /** Colour and erase-line codes removed (not byte-invertible). */
  | 'strip-styling'
  | 'columnar'
  | 'volatile'
  /** Repeated long texts written once, in a legend at the top, and then as `§1`-style marks. */
  | 'aliases'
  /** Lines split at `\n` (a `\r` stays part of its line). */
  | 'fold-lines'
  /** Every line ends with `\r\n`. */
  | 'fold-lines-crlf'
  /** Every line ends with a lone `\r`. */
  | 'fold-lines-cr';

const FOLD_SEPARATOR: Readonly<Record<string, string>> = {
  'fold-lines': '\n',
  'fold-lines-crlf': '\r\n',
  'fold-lines-cr': '\r',
};

/** Options for {@link losslessEncode}. */
export interface LosslessOptions {
  /**
   * Lift volatile fields (timestamps, UUIDs, ids) into a trailing table: `true` always (JWTs and request
   * ids too); `'auto'` (the default for logs and tool output) when that makes the text shorter, lifting
   * only values a time/UUID/id masker would hide, so every line stays recognisable; `false` never (the
   * default for other kinds).
   */
  readonly volatile?: boolean | 'auto';
  /** Shortest run that folds (see line-fold.ts). */
  readonly minRun?: number;
  /** Remove terminal styling codes (logs, tool output and diffs): default true. */
  readonly stripStyling?: boolean;
  /** Shorthand for repeated long texts (JSON, logs, tool output): default true. */
  readonly aliases?: boolean;
  /** Remove a line-number gutter (any kind): default true. */
  readonly lineNumbers?: boolean;
}

/** Result of {@link losslessEncode}. */
export interface LosslessResult {
  readonly text: string;
  readonly transforms: LosslessTransform[];
  /**
   * True when {@link losslessDecode} gives back the input byte for byte; false after canonical JSON or
   * styling removal, where it gives back the canonical or plain text.
   */
  readonly exact: boolean;
}

/**
 * Applies the tier-0 transforms for `kind`. `protect` marks lines (as split at `\r\n`, `\r` or `\n`) that
 * must stay verbatim. Returns the input unchanged (no transforms) when nothing applies or nothing helps.
 */
export function losslessEncode(
  text: string,
  kind: ContentKind,
  protect?: Uint8Array,
  options: LosslessOptions = {},
): LosslessResult {
  const unnumbered = options.lineNumbers === false ? null : stripLineNumbers(text);
  if (unnumbered !== null) {
    // Same lines, same protection: only each line's gutter went.
    const inner = losslessEncode(
      unnumbered.text,
      kind === 'json' || kind === 'schema' ? 'tool_output' : kind,
      protect,
      {
        ...options,
        lineNumbers: false,
      },
    );
    return {
      text: `${formatLineNumbersNote(unnumbered.numbers)}\n${inner.text}`,
      transforms: ['line-numbers', ...inner.transforms],
      exact: inner.exact,
    };
  }
  const transforms: LosslessTransform[] = [];
  let out = text;
  let exact = true;
  let lineKind = kind === 'log' || kind === 'tool_output';
  const offsets = protect !== undefined ? offsetsOf(protect) : undefined;
  if (options.stripStyling !== false && (lineKind || kind === 'diff')) {
    // assigned straight to `out`, so no second name keeps the plain copy past its use
    out = stripStyling(text, offsets?.(text)) ?? text;
    if (out !== text) {
      transforms.push('strip-styling');
      exact = false;
    }
  }
  if (kind === 'json' || kind === 'schema') {
    const canonical = canonicalJson(text);
    if (canonical !== null) {
      if (canonical !== text) {
        out = canonical;
        transforms.push('canonical-json');
        exact = false;
      }
      const columnar = compactColumnar(out);
      if (columnar !== null) {
        out = columnar;
        transforms.push('columnar');
      }
    } else lineKind = true;
  }
  const volatile = options.volatile ?? (lineKind ? 'auto' : false);
  const shorthand = options.aliases !== false && (lineKind || transforms.includes('columnar'));
  const finish = { lineKind, protect, offsets, minRun: options.minRun, shorthand };
  const done = (chosen: { text: string; transforms: LosslessTransform[] }): LosslessResult => ({
    text: chosen.text,
    transforms: [...transforms, ...chosen.transforms],
    exact,
  });
  // The text being transformed is held in one place only (`work`), so that each stage's copy can go
  // once the next one is made: a 32 MiB block with one non-Latin-1 character is 64 MiB per copy.
  const work = { text: out };
  out = '';
  if (volatile !== false) {
    const keepAt = lineKind ? offsets?.(work.text) : undefined;
    let extracted: VolatileExtraction | null = extractVolatile(work.text, {
      tokensAndRequestIds: volatile === true,
      keepAt,
    });
    // 'auto': lift when the values removed outweigh the table they go to (consecutive timestamps write
    // as short tails there); the folds after it only gain from the lines becoming more alike.
    if (extracted.fields.length > 0 && (volatile === true || liftingPays(extracted.fields))) {
      const fields = extracted.fields;
      work.text = extracted.stable;
      extracted = null;
      return done(finishLines(work, fields, finish));
    }
    extracted = null;
  }
  return done(finishLines(work, [], finish));
}

/**
 * {@link protectedOffsets} for one call of {@link losslessEncode}, built once per text: styling removal,
 * volatile extraction and the shorthand each ask, mostly about the same text, and a build reads all of it.
 */
function offsetsOf(protect: Uint8Array): (text: string) => (offset: number) => boolean {
  let last: { text: string; test: (offset: number) => boolean } | null = null;
  return (text) => {
    if (last === null || last.text !== text) last = { text, test: protectedOffsets(text, protect) };
    return last.test;
  };
}

/**
 * A test for "this offset is on a protected line" (lines end at `\r\n`, `\r` or `\n`). The transforms ask
 * in text order, so the line of the last answer is tried first, then the next one, before a binary search.
 */
export function protectedOffsets(text: string, protect: Uint8Array): (offset: number) => boolean {
  // with no protected line at all, no line starts are needed
  if (protect.indexOf(1) < 0) return () => false;
  const starts: number[] = [0];
  // Line ends found by the native search rather than a loop over every character: the next `\n` and
  // the next `\r`, whichever comes first (a `\r` before a `\n` ends no line of its own).
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf >= 0 || cr >= 0) {
    if (cr < 0 || (lf >= 0 && lf < cr)) {
      starts.push(lf + 1);
      lf = text.indexOf('\n', lf + 1);
    } else {
      if (text.charCodeAt(cr + 1) !== 10) starts.push(cr + 1);
      cr = text.indexOf('\r', cr + 1);
    }
  }
  const last = starts.length - 1;
  // the line of the previous answer
  let line = 0;
  return (offset) => {
    if (offset < starts[line]! || (line < last && offset >= starts[line + 1]!)) {
      if (line + 1 < last && offset >= starts[line + 1]! && offset < starts[line + 2]!) line++;
      else {
        let lo = 0;
        let hi = last;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (starts[mid]! <= offset) lo = mid;
          else hi = mid - 1;
        }
        line = lo;
      }
    }
    return protect[line] === 1;
  };
}

function liftingPays(fields: readonly string[]): boolean {
  let removed = 0;
  for (const f of fields) removed += f.length - 1;
  let table = 0;
  for (const line of formatVolatileTable(fields)) table += line.length + 1;
  return removed > table;
}

interface FinishOptions {
  readonly lineKind: boolean;
  readonly protect: Uint8Array | undefined;
  readonly offsets: ((text: string) => (offset: number) => boolean) | undefined;
  readonly minRun: number | undefined;
  readonly shorthand: boolean;
}

/**
 * Shortens repeats, folds the lines (for line kinds), appends the table of lifted values, if any, and
 * puts the shorthand legend in front.
 */
function finishLines(
  work: { text: string },
  fields: readonly string[],
  { lineKind, protect, offsets, minRun, shorthand }: FinishOptions,
): { text: string; transforms: LosslessTransform[] } {
  const transforms: LosslessTransform[] = fields.length > 0 ? ['volatile'] : [];
  const legend = shorthand ? shortenRepeats(work, lineKind ? offsets : undefined) : null;
  if (legend !== null) transforms.push('aliases');
  // the offsets' cache holds the last text it was asked about, a copy nothing reads any more
  offsets?.('');
  let separator: string | null = null;
  if (lineKind) {
    const folded = foldText(work.text, protect, minRun);
    if (folded !== null) {
      work.text = folded.text;
      transforms.push(folded.transform);
      separator = FOLD_SEPARATOR[folded.transform]!;
    }
  }
  let out = work.text;
  work.text = '';
  if (fields.length > 0) {
    const term = separator ?? terminatorOf(out) ?? '\n';
    out = `${out}${term}${formatVolatileTable(fields).join(term)}`;
  }
  if (legend !== null) out = `${legend}\n${out}`;
  return { text: out, transforms };
}

/**
 * The shorthand step of {@link finishLines}: `work.text` becomes the shortened body, and the legend
 * comes back as one flat string (null when nothing is shortened). A function of its own so that nothing
 * of the step outlives it: the aliases are slices of the text before, which they would keep alive.
 */
function shortenRepeats(
  work: { text: string },
  offsets: ((text: string) => (offset: number) => boolean) | undefined,
): string | null {
  const aliased = aliasRepeats(work.text, offsets?.(work.text));
  if (aliased === null) return null;
  work.text = aliased.body;
  return formatAliasLegend(aliased).join('\n');
}

/**
 * Undoes {@link losslessEncode}. The transforms always run in one order (the gutter's removal, styling removal or canonical JSON,
 * columnar, volatile extraction, shorthand, line folding, then the volatile table appended and the
 * shorthand legend put in front), so decoding is that order reversed. After `canonical-json` the result is the canonical JSON — equal in value to the
 * original, not its bytes — and after `strip-styling` the plain text (see `exact`).
 */
export function losslessDecode(text: string, transforms: readonly LosslessTransform[]): string {
  if (transforms[0] === 'line-numbers') {
    const note = parseLineNumbersNote(text);
    if (note === null) throw new Error('lossless: no line-number note at the start of the text');
    return restoreLineNumbers(losslessDecode(note.body, transforms.slice(1)), note.numbers);
  }
  let out = text;
  let fields: string[] | undefined;
  let legend: ReturnType<typeof parseAliasLegend> = null;
  if (transforms.includes('aliases')) {
    legend = parseAliasLegend(out);
    if (legend === null) throw new Error('lossless: no shorthand legend at the start of the text');
    out = legend.body;
  }
  const fold = transforms.find((t) => FOLD_SEPARATOR[t] !== undefined);
  if (transforms.includes('volatile')) {
    const term = fold !== undefined ? FOLD_SEPARATOR[fold]! : (terminatorOf(out) ?? '\n');
    const lines = out.split(term);
    const table = parseVolatileTable(lines);
    if (table === undefined) throw new Error('lossless: no table of volatile values at the end of the text');
    out = lines.slice(0, lines.length - table.lineCount).join(term);
    fields = table.fields;
  }
  if (fold !== undefined) out = unfoldLines(out.split(FOLD_SEPARATOR[fold]!)).join(FOLD_SEPARATOR[fold]!);
  if (legend !== null) out = restoreAliases(out, legend.sigil, legend.aliases);
  if (fields !== undefined) out = restoreVolatile(out, fields);
  if (transforms.includes('columnar')) out = expandColumnar(out);
  return out;
}

/** The line terminator of a text when it uses exactly one kind (`\r\n`, `\r` or `\n`); `null` if mixed. */
function terminatorOf(text: string): string | null {
  let crlf = 0;
  let cr = 0;
  let lf = 0;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) crlf++;
    else cr++;
  }
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lf++;
  lf -= crlf;
  const kinds = (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0) + (lf > 0 ? 1 : 0);
  if (kinds > 1) return null;
  return crlf > 0 ? '\r\n' : cr > 0 ? '\r' : lf > 0 ? '\n' : null;
}

/**
 * Folds the lines of `text`. Uniform `\r\n` or `\r` endings are kept as the separator; otherwise lines
 * are split at `\n` and any `\r` stays inside its line (a progress bar's overwrites, a CRLF line among LF
 * lines), so mixed endings round-trip too. `protect` is per line as the pipeline splits them (at `\r\n`,
 * `\r` or `\n`): a folded line is protected when any line inside it is.
 */
function foldText(
  text: string,
  protect: Uint8Array | undefined,
  minRun: number | undefined,
): { text: string; transform: LosslessTransform } | null {
  const term = terminatorOf(text);
  const transform: LosslessTransform =
    term === '\r\n' ? 'fold-lines-crlf' : term === '\r' ? 'fold-lines-cr' : 'fold-lines';
  const separator = FOLD_SEPARATOR[transform]!;
  const lines = text.split(separator);
  // A trailing terminator leaves an empty last line: it stays out of the folds and goes back as it came.
  const trailing = lines.length > 1 && lines[lines.length - 1] === '';
  if (trailing) lines.pop();
  // One line folds only as the updates of a line rewritten in place.
  if (lines.length < 2 && (transform !== 'fold-lines' || !lines[0]?.includes('\r'))) return null;
  const mapped =
    protect === undefined || transform !== 'fold-lines' || !text.includes('\r')
      ? protect
      : remapProtect(lines, protect);
  // A line rewritten in place holds a `\r`: without one in the text, no line needs the test.
  const overwrites = transform === 'fold-lines' && text.includes('\r');
  const folded = foldLogLines(lines, { protect: mapped, minRun, overwrites });
  const out = folded.join(separator) + (trailing ? separator : '');
  return out.length < text.length ? { text: out, transform } : null;
}

/** Protection per `\n`-line from protection per pipeline line (which also ends at a lone `\r`). */
function remapProtect(lines: readonly string[], protect: Uint8Array): Uint8Array {
  const out = new Uint8Array(lines.length);
  let lead = 0;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    // A `\r` inside the line ends a pipeline line; one at its very end belongs to a CRLF (or ends the
    // text, where no line follows).
    let inside = 1;
    for (let c = line.indexOf('\r'); c >= 0; c = line.indexOf('\r', c + 1)) if (c < line.length - 1) inside++;
    for (let j = lead; j < lead + inside; j++) if (protect[j] === 1) out[k] = 1;
    lead += inside;
  }
  return out;
}
