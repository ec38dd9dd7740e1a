import type { ContentKind } from '@distil/contract';
import { canonicalJson } from './canonical-json.js';
import { compactColumnar, expandColumnar } from './columnar.js';
import { foldLogLines, unfoldLines } from './line-fold.js';
import {
  extractVolatile,
  formatVolatileTable,
  parseVolatileTable,
  restoreVolatile,
} from './volatile-fields.js';

/**
 * Tier 0 as one call: the lossless transforms that apply to a block's kind, in the order that works.
 * - json (and schema): canonical JSON (key order — not byte-invertible), then columnar record tables;
 * - log and tool_output: template runs and repeated lines folded (line-fold.ts), protected lines verbatim;
 * - volatile-field extraction when asked (`volatile: true`), last: it is about cache stability, not size
 *   (it costs a few tokens), so the caller decides.
 * Other kinds (source, diff, doc, chat) are left alone unless `volatile` is set: folding similar code or
 * prose lines would hurt reading more than it saves.
 */

/** A tier-0 transform, in the order they were applied. */
export type LosslessTransform = 'canonical-json' | 'columnar' | 'fold-lines' | 'volatile';

/** Options for {@link losslessEncode}. */
export interface LosslessOptions {
  /** Lift volatile fields (timestamps, UUIDs, ids) into a trailing table. Default false. */
  readonly volatile?: boolean;
  /** Shortest run that folds (see line-fold.ts). */
  readonly minRun?: number;
}

/** Result of {@link losslessEncode}. */
export interface LosslessResult {
  readonly text: string;
  readonly transforms: LosslessTransform[];
  /** True when {@link losslessDecode} gives back the input byte for byte (false after canonical JSON). */
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
  const transforms: LosslessTransform[] = [];
  let out = text;
  let exact = true;
  let lineKind = kind === 'log' || kind === 'tool_output';
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
  let fields: string[] = [];
  if (options.volatile === true) {
    const extracted = extractVolatile(out);
    if (extracted.fields.length > 0) {
      out = extracted.stable;
      fields = extracted.fields;
      transforms.push('volatile');
    }
  }
  if (lineKind) {
    const folded = foldText(out, protect, options.minRun);
    if (folded !== null) {
      out = folded;
      transforms.push('fold-lines');
    }
  }
  if (fields.length > 0) {
    const term = terminatorOf(out) ?? '\n';
    out = `${out}${term}${formatVolatileTable(fields).join(term)}`;
  }
  return { text: out, transforms, exact };
}

/**
 * Undoes {@link losslessEncode}. The transforms always run in one order (canonical JSON, columnar, volatile
 * extraction, line folding, then the volatile table appended), so decoding is that order reversed. After
 * `canonical-json` the result is the canonical JSON — equal in value to the original, not its bytes
 * (see `exact`).
 */
export function losslessDecode(text: string, transforms: readonly LosslessTransform[]): string {
  let out = text;
  let fields: string[] | undefined;
  if (transforms.includes('volatile')) {
    const term = terminatorOf(out) ?? '\n';
    const lines = out.split(term);
    const table = parseVolatileTable(lines);
    if (table === undefined) throw new Error('lossless: no table of volatile values at the end of the text');
    out = lines.slice(0, lines.length - table.lineCount).join(term);
    fields = table.fields;
  }
  if (transforms.includes('fold-lines')) out = unfoldText(out);
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

function foldText(text: string, protect: Uint8Array | undefined, minRun: number | undefined): string | null {
  const term = terminatorOf(text);
  if (term === null) return null; // mixed line endings: left alone rather than guessed
  const lines = text.split(term);
  const trailing = lines.length > 1 && lines[lines.length - 1] === '';
  if (trailing) lines.pop();
  if (lines.length < 2) return null;
  const folded = foldLogLines(lines, { protect, minRun });
  const out = folded.join(term) + (trailing ? term : '');
  // The decoder reads the terminator off the folded text: it must still be there (or be the default).
  if (term !== '\n' && terminatorOf(out) !== term) return null;
  return out.length < text.length ? out : null;
}

function unfoldText(text: string): string {
  const term = terminatorOf(text) ?? '\n';
  // No trailing-terminator special case: a final empty line is either a table row (consumed by count)
  // or the empty line that a trailing terminator leaves, and either way it goes back as it came.
  return unfoldLines(text.split(term)).join(term);
}
