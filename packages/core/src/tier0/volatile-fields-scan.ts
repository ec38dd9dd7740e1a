/**
 * The maskable volatile values of a text (volatile-fields.ts: times, UUIDs, hex ids, epoch numbers, time
 * fields and `#`), found by one hand-written pass instead of the alternation they are defined by
 * (`MASKABLE` there). The pattern's engine tries every alternative at every digit and at the lookbehind
 * of each; this pass reads each character once to classify it and tries the alternatives only where one
 * can start, in the pattern's order, so the matches are the pattern's own, leftmost first. The property
 * test in volatile-fields-scan.test.ts holds the two together.
 *
 * `\b` and `\d` are the pattern's (no `u` flag): word characters are ASCII `[A-Za-z0-9_]`, digits `[0-9]`.
 */

/** Character classes, by code unit below 128 (every other unit is OTHER). */
const OTHER = 0;
/** A word character that is neither a digit nor a hex letter: `g`–`z`, `G`–`Z`, `_`. */
const WORD = 1;
const HEX_LETTER = 2;
const DIGIT = 3;
const HASH = 4;

const CLASS = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[0-9]/.test(ch)) table[c] = DIGIT;
    else if (/[a-fA-F]/.test(ch)) table[c] = HEX_LETTER;
    else if (/\w/.test(ch)) table[c] = WORD;
    else if (ch === '#') table[c] = HASH;
  }
  return table;
})();

const classOf = (c: number): number => (c < 128 ? CLASS[c]! : OTHER);
const isWord = (c: number): boolean => c < 128 && CLASS[c]! !== OTHER && CLASS[c]! !== HASH;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => c < 128 && (CLASS[c] === DIGIT || CLASS[c] === HEX_LETTER);
const isBlank = (c: number): boolean => c === 32 || c === 9;

/**
 * Calls `found(start, end)` for each match of the maskable pattern in `text`, in order, as a global
 * search would find them (after a match the search goes on at its end).
 */
export function scanMaskable(text: string, found: (start: number, end: number) => void): void {
  const n = text.length;
  let prevWord = false;
  let p = 0;
  while (p < n) {
    const c = text.charCodeAt(p);
    const cls = classOf(c);
    let end = -1;
    if (cls === DIGIT) end = prevWord ? isoEnd(text, p, n) : digitStartEnd(text, p, n);
    else if (cls === HASH) end = p + 1;
    else if (cls === HEX_LETTER && !prevWord) end = hexStartEnd(text, p, n);
    if (end > p) {
      found(p, end);
      prevWord = isWord(text.charCodeAt(end - 1));
      p = end;
    } else {
      prevWord = cls !== OTHER && cls !== HASH;
      p++;
    }
  }
}

/** Digits in a row from `from` (up to `n`). */
function digitsFrom(text: string, from: number, n: number): number {
  let k = from;
  while (k < n && isDigit(text.charCodeAt(k))) k++;
  return k - from;
}

function digitsAt(text: string, at: number, count: number): boolean {
  for (let k = at; k < at + count; k++) if (!isDigit(text.charCodeAt(k))) return false;
  return true;
}

/** `\b` after a match that ends on a word character: the next unit is not one (or the text ends). */
const boundaryAfter = (text: string, at: number): boolean => !isWord(text.charCodeAt(at));

/**
 * The end of the ISO date-time at `p` (`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`),
 * or -1. Its optional parts are greedy and nothing follows them, so the longest form that reads is the match.
 */
function isoEnd(text: string, p: number, n: number): number {
  if (p + 19 > n) return -1;
  if (!digitsAt(text, p, 4) || text.charCodeAt(p + 4) !== 45) return -1; // -
  if (!digitsAt(text, p + 5, 2) || text.charCodeAt(p + 7) !== 45) return -1;
  const sep = text.charCodeAt(p + 10);
  if (!digitsAt(text, p + 8, 2) || (sep !== 84 && sep !== 32)) return -1; // T or space
  if (!clockAt(text, p + 11)) return -1;
  let e = p + 19;
  const f = text.charCodeAt(e);
  if (f === 46 || f === 44) {
    // . or ,
    const digits = digitsFrom(text, e + 1, n);
    if (digits > 0) e += 1 + digits;
  }
  const z = text.charCodeAt(e);
  if (z === 90) return e + 1; // Z
  if ((z === 43 || z === 45) && digitsAt(text, e + 1, 2) && e + 3 <= n) {
    // + or -, then hh, then an optional `:` and mm
    if (text.charCodeAt(e + 3) === 58 && e + 6 <= n && digitsAt(text, e + 4, 2)) return e + 6;
    if (e + 5 <= n && digitsAt(text, e + 3, 2)) return e + 5;
  }
  return e;
}

/** `\d\d:\d\d:\d\d` at `at`. */
function clockAt(text: string, at: number): boolean {
  return (
    digitsAt(text, at, 2) &&
    text.charCodeAt(at + 2) === 58 &&
    digitsAt(text, at + 3, 2) &&
    text.charCodeAt(at + 5) === 58 &&
    digitsAt(text, at + 6, 2)
  );
}

/** At a digit after a non-word unit: the alternatives in the pattern's order. */
function digitStartEnd(text: string, p: number, n: number): number {
  const iso = isoEnd(text, p, n);
  if (iso > 0) return iso;
  const clock = clockEnd(text, p, n);
  if (clock > 0) return clock;
  const hex = hexStartEnd(text, p, n);
  if (hex > 0) return hex;
  if (text.charCodeAt(p) === 49) {
    // `\b1\d{9,18}\b`: the greedy digits cannot give back (a boundary never falls between two digits)
    const digits = digitsFrom(text, p + 1, n);
    if (digits >= 9 && digits <= 18 && boundaryAfter(text, p + 1 + digits)) return p + 1 + digits;
  }
  return timeFieldEnd(text, p, n);
}

/** `\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b` at `p` (its leading `\b` is the caller's). */
function clockEnd(text: string, p: number, n: number): number {
  if (p + 8 > n || !clockAt(text, p)) return -1;
  const e = p + 8;
  const f = text.charCodeAt(e);
  if (f === 46 || f === 44) {
    const digits = digitsFrom(text, e + 1, n);
    if (digits > 0 && boundaryAfter(text, e + 1 + digits)) return e + 1 + digits;
    // without the fraction the match ends before the `.` or `,`, a boundary
    return e;
  }
  return boundaryAfter(text, e) ? e : -1;
}

/** At a hex digit after a non-word unit: a UUID, else a hex id of 16 or more (each closed by `\b`). */
function hexStartEnd(text: string, p: number, n: number): number {
  if (p + 36 <= n && uuidAt(text, p) && boundaryAfter(text, p + 36)) return p + 36;
  let k = p;
  while (k < n && isHex(text.charCodeAt(k))) k++;
  // the greedy run cannot give back: no boundary falls between two hex digits
  return k - p >= 16 && boundaryAfter(text, k) ? k : -1;
}

/** `[hex]{8}-[hex]{4}-[hex]{4}-[hex]{4}-[hex]{12}` at `p`. */
function uuidAt(text: string, p: number): boolean {
  let k = p;
  for (const size of UUID_GROUPS) {
    if (k > p && text.charCodeAt(k++) !== 45) return false;
    for (const end = k + size; k < end; k++) if (!isHex(text.charCodeAt(k))) return false;
  }
  return true;
}

const UUID_GROUPS = [8, 4, 4, 4, 12];

/**
 * `(?<="NAME"[ \t]{0,4}:[ \t]{0,4})\d{9,19}\b` at `p`, NAME being `ts|[A-Za-z_]*(?:[Tt]ime[A-Za-z_]*|_ts|Ts|TS|At|_at)`.
 * Read backwards, each part is forced: the blanks before `p` must all belong to the second `[ \t]{0,4}`
 * (a `:` precedes them), likewise before the `:`, and NAME is the whole run of `[A-Za-z_]` before the
 * closing quote, since the opening quote is not such a character.
 */
function timeFieldEnd(text: string, p: number, n: number): number {
  const digits = digitsFrom(text, p, n);
  if (digits < 9 || digits > 19 || !boundaryAfter(text, p + digits)) return -1;
  let k = p - 1;
  const afterColon = k;
  while (k >= 0 && afterColon - k < 5 && isBlank(text.charCodeAt(k))) k--;
  if (afterColon - k > 4 || text.charCodeAt(k) !== 58) return -1; // :
  k--;
  const beforeColon = k;
  while (k >= 0 && beforeColon - k < 5 && isBlank(text.charCodeAt(k))) k--;
  if (beforeColon - k > 4 || text.charCodeAt(k) !== 34) return -1; // "
  const close = k;
  k--;
  while (k >= 0 && isNameChar(text.charCodeAt(k))) k--;
  if (k < 0 || text.charCodeAt(k) !== 34) return -1;
  return isTimeName(text.slice(k + 1, close)) ? p + digits : -1;
}

const isNameChar = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** NAME of the time-field lookbehind, matched whole (every unit is already `[A-Za-z_]`). */
function isTimeName(name: string): boolean {
  return (
    name === 'ts' ||
    name.includes('time') ||
    name.includes('Time') ||
    TIME_NAME_ENDS.some((end) => name.endsWith(end))
  );
}

const TIME_NAME_ENDS = ['_ts', 'Ts', 'TS', 'At', '_at'];
