/**
 * Volatile-field extraction (spec: cache stabilisation): values that change on every run or turn —
 * timestamps, UUIDs, JWTs, request ids, long hex ids, epoch numbers — are lifted out of the text, so the
 * rest of it (the stable text) is byte-identical turn over turn and stays in the prompt cache.
 *
 * Each lifted value leaves a single `#` in the stable text, and `fields` lists the values in order. The
 * placeholder is `#` because it keeps every line recognisable: a reader (or a check) that masks times,
 * UUIDs, long hex ids and long numbers to `#` sees the same line before and after extraction. JWTs and
 * request ids are the exception — they are lifted too, and a line holding one reads `token=#` while the
 * original masks to itself. A `#` that was already in the text is listed as the field `#`, so
 * {@link restoreVolatile} simply replaces every `#` with the next field; when nothing volatile is found the
 * text is returned as it is with no fields (and then `#` marks are left alone).
 *
 * Detection is one regular expression over the whole text, leftmost match first (for the maskable values,
 * a hand-written pass that finds the same matches, see volatile-fields-scan.ts). Times, UUIDs, hex ids and
 * numbers use exactly the spans a `\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d…|\b\d\d:\d\d:\d\d…|UUID|\b[0-9a-f]{16,}\b|
 * \b\d{5,}\b` masker would replace, so masked lines compare equal; a syslog stamp `Jan  2 03:04:05` lifts
 * only its time.
 */

import { scanMaskable } from './volatile-fields-scan.js';

/** Result of {@link extractVolatile}. */
export interface VolatileExtraction {
  /** The text with each lifted value replaced by `#`. */
  readonly stable: string;
  /** One entry per `#` in `stable`, in order (a `#` of the original is the entry `#`); empty: none lifted. */
  readonly fields: string[];
}

const ISO_DATETIME = String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`;
const CLOCK_TIME = String.raw`\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b`;
const UUID = String.raw`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`;
const HEX_ID = String.raw`\b[0-9a-fA-F]{16,}\b`;
/** Epoch seconds, milliseconds, microseconds or nanoseconds (10–19 digits starting with 1). */
const EPOCH = String.raw`\b1\d{9,18}\b`;
const JWT = String.raw`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`;
/** `req_8fj2k3l4`: the id after the prefix. */
const PREFIXED_REQUEST_ID = String.raw`(?<=\breq_)[A-Za-z0-9]{8,}\b`;
/**
 * `x-request-id: abc…`, `request_id=abc…`, `"requestId": "abc…"`: the value. The spaces around the
 * separator are bounded: a lookbehind with `\s*` rescans a whole run of blanks at every position, which
 * made a line of a million carriage returns take minutes.
 */
const KEYED_REQUEST_ID = String.raw`(?<=\b(?:[Xx]-[Rr]equest-[Ii][Dd]|[Rr]equest[_-]?[Ii][Dd])["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)[A-Za-z0-9][A-Za-z0-9._:-]{5,}`;
/** JSON fields whose name says time: `"ts": 1700000000000`, `"createdTime": 1700000000`. */
const TIME_FIELD_NUMBER = String.raw`(?<="(?:ts|[A-Za-z_]*(?:[Tt]ime[A-Za-z_]*|_ts|Ts|TS|At|_at))"[ \t]{0,4}:[ \t]{0,4})\d{9,19}\b`;

/**
 * The alternatives as one pattern behind a lookahead for the character every one of them starts with
 * (`first`). The lookahead changes no match — each alternative begins with such a character — but lets
 * the engine skip the other positions after one test instead of trying every alternative there (the
 * lookbehinds especially): the scan runs about 1.7× faster on CI logs.
 */
const alternation = (first: string, patterns: readonly string[]): RegExp =>
  new RegExp(`(?=${first})(?:${patterns.map((p) => `(?:${p})`).join('|')})`, 'g');
/** Lookbehind alternatives tested only where their value can start. */
const atDigit = (p: string): string => String.raw`(?=\d)${p}`;
const atWord = (p: string): string => `(?=[A-Za-z0-9])${p}`;
const VOLATILE = alternation('[0-9A-Za-z#]', [
  ISO_DATETIME,
  CLOCK_TIME,
  UUID,
  HEX_ID,
  EPOCH,
  JWT,
  atWord(PREFIXED_REQUEST_ID),
  atWord(KEYED_REQUEST_ID),
  atDigit(TIME_FIELD_NUMBER),
  '#',
]);
/**
 * Only what a time/UUID/id/number masker also masks: every line stays recognisable under that mask. The
 * definition of what {@link scanMaskable} finds (which the default extraction runs instead); the property
 * test compares the two.
 */
// Of its forms, only a UUID and a hex id start with a letter, and both at a word boundary: the guard
// skips the letters inside words, which the plain `[0-9a-fA-F#]` let through to every alternative.
export const MASKABLE = alternation(String.raw`[0-9#]|\b[a-fA-F]`, [
  ISO_DATETIME,
  CLOCK_TIME,
  UUID,
  HEX_ID,
  EPOCH,
  atDigit(TIME_FIELD_NUMBER),
  '#',
]);

/** Options for {@link extractVolatile}. */
export interface ExtractOptions {
  /** Also lift JWTs and request ids (default true); false keeps to values a masker would hide anyway. */
  readonly tokensAndRequestIds?: boolean;
  /** Values starting at offsets for which this is true stay in place (protected lines). */
  readonly keepAt?: (offset: number) => boolean;
}

/** Lifts volatile values out of `text` (see the module comment for what counts). */
export function extractVolatile(text: string, options: ExtractOptions = {}): VolatileExtraction {
  const keepAt = options.keepAt;
  if (options.tokensAndRequestIds === false) return extractMaskable(text, keepAt);
  const fields: string[] = [];
  let lifted = 0;
  const stable = text.replace(VOLATILE, (value: string, offset: number) => {
    if (value !== '#' && keepAt?.(offset) === true) return value;
    fields.push(value);
    if (value !== '#') lifted++;
    return '#';
  });
  if (lifted === 0) return { stable: text, fields: [] };
  return { stable, fields: detached(fields) };
}

/**
 * {@link extractVolatile} for the maskable values only (the pipeline's default), by the one-pass scan of
 * volatile-fields-scan.ts: on CI logs the pattern's replace was the lossless tier's largest single cost.
 */
function extractMaskable(
  text: string,
  keepAt: ((offset: number) => boolean) | undefined,
): VolatileExtraction {
  const fields: string[] = [];
  // joined once at the end, not grown by `+=`: see stripStyling on ropes
  const stable: string[] = [];
  // text before `from` is in `stable` already
  let from = 0;
  scanMaskable(text, (start, end) => {
    // a `#` of the text stays as it is and is listed as itself
    if (end === start + 1 && text.charCodeAt(start) === 35) {
      fields.push('#');
      return;
    }
    if (keepAt?.(start) === true) return;
    fields.push(text.slice(start, end));
    stable.push(text.slice(from, start), '#');
    from = end;
  });
  if (from === 0) return { stable: text, fields: [] };
  stable.push(text.slice(from));
  return { stable: stable.join(''), fields: detached(fields) };
}

/**
 * Each value is a slice of the text, and a slice keeps its whole parent alive: copied out (by one join
 * and split; no value holds a line end), the fields no longer pin a copy of a block that may be 64 MiB.
 */
const detached = (fields: readonly string[]): string[] => fields.join('\n').split('\n');

/** Exact inverse of {@link extractVolatile}: puts `fields` back at the `#` marks of `stable`, in order. */
export function restoreVolatile(stable: string, fields: readonly string[]): string {
  if (fields.length === 0) return stable;
  let k = 0;
  const out = stable.replace(/#/g, () => {
    const value = fields[k++];
    if (value === undefined) throw new Error(`volatile: more # marks than the ${fields.length} fields`);
    return value;
  });
  if (k !== fields.length) throw new Error(`volatile: ${fields.length} fields for ${k} # marks`);
  return out;
}

const TABLE_HEADER = /^\[(\d+) values for the # marks above, in order\]$/;

/**
 * The fields as lines of a table to append after the stable text:
 * `[N values for the # marks above, in order]`, then one line per value. A value the same length as the
 * one before and sharing at least its first three characters is written as `^` + the part that differs
 * (`2022-06-15T23:33:46.1952942Z` then `^5939Z` for `…46.1955939Z`): consecutive timestamps cost a few
 * tokens each. A value that itself starts with `^` or `\` gets a `\` in front.
 */
export function formatVolatileTable(fields: readonly string[]): string[] {
  const out = [`[${fields.length} values for the # marks above, in order]`];
  let prev = '';
  for (const value of fields) {
    let shared = 0;
    if (value.length === prev.length) {
      while (shared < value.length && value.charCodeAt(shared) === prev.charCodeAt(shared)) shared++;
    }
    if (shared >= 3) out.push(`^${value.slice(shared)}`);
    else if (value.startsWith('^') || value.startsWith('\\')) out.push(`\\${value}`);
    else out.push(value);
    if (value !== '#') prev = value;
  }
  return out;
}

/**
 * Reads a table written by {@link formatVolatileTable} from the end of `lines`: returns the fields and how
 * many lines the table took, or `undefined` when the lines do not end with such a table.
 */
export function parseVolatileTable(
  lines: readonly string[],
): { fields: string[]; lineCount: number } | undefined {
  for (let h = lines.length - 1; h >= 0; h--) {
    const header = TABLE_HEADER.exec(lines[h]!);
    if (header === null) continue;
    const count = Number(header[1]);
    if (lines.length - h - 1 !== count) continue;
    const fields: string[] = [];
    let prev = '';
    for (let k = h + 1; k < lines.length; k++) {
      const line = lines[k]!;
      let value: string;
      if (line.startsWith('^')) value = prev.slice(0, prev.length - (line.length - 1)) + line.slice(1);
      else if (line.startsWith('\\')) value = line.slice(1);
      else value = line;
      fields.push(value);
      if (value !== '#') prev = value;
    }
    return { fields, lineCount: count + 1 };
  }
  return undefined;
}
