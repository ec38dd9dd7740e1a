import { MASK } from './template-mask.js';

/**
 * What the second stage of template mining needs to know about one skeleton token, computed once per
 * distinct token, as bits of one small integer (a token table holds one per token, with no object or
 * string behind it). The rules are generic: they look at the shape of a token, never at a particular
 * system.
 */
export type TokenTraits = number;

/** Holds a mask (some part is variable). */
export const MASKED = 1;
/** Only masks and punctuation: `<*>`, `(<*>)`, `[<*>`, `-`, `*<*>`. */
export const PURE = 2;
/** `[...]` — a bracketed context field (thread, request, level). */
export const BRACKETED = 4;
/** `GET`, `CONTAINER_REMOTE_LAUNCH`: names a kind of event. */
export const UPPER = 8;
/** camelCase or Capitalized: an identifier or word from the program's source text. */
export const CODE = 16;
export const HAS_LETTER = 32;
/** A log level (`INFO`, `[warn]`, `Error:`): lines that differ only in level are one template. */
export const LEVEL = 64;

/**
 * The level words, upper case, and the one-letter levels of Android's logcat (`V`, `D`, `I`, `W`, `E`,
 * `F`). A level token is one of them in any case, with at most one of `[`, `(`, `<` before and one of
 * `]`, `)`, `>`, `:` after.
 */
const LEVEL_WORDS = [
  'TRACE',
  'DEBUG',
  'FINE',
  'FINER',
  'FINEST',
  'INFO',
  'NOTICE',
  'WARN',
  'WARNING',
  'ERROR',
  'ERR',
  'SEVERE',
  'CRITICAL',
  'CRIT',
  'FATAL',
  'ALERT',
  'EMERG',
  'V',
  'D',
  'I',
  'W',
  'E',
  'F',
];
const LONGEST_LEVEL = Math.max(...LEVEL_WORDS.map((w) => w.length));

/**
 * The traits of the token `units[from, from + len)`, in one pass over its code units (no string is
 * made: the miner calls this once per distinct token of every block, straight from the skeleton).
 */
export function traitsOfUnits(units: Uint16Array, from: number, len: number): TokenTraits {
  let masked = false;
  let alnum = false;
  let letters = 0;
  let uppers = 0;
  let lowerThenUpper = false;
  let firstLetterUpper = -1; // 1 upper, 0 lower
  let secondLetterLower = false;
  let prevLower = false;
  let closes = false;
  let firstLetter = -1;
  let lastLetter = -1;
  const end = from + len;
  for (let i = from; i < end; i++) {
    const c = units[i]!;
    if (c === 0) masked = true;
    else if (c === 93) closes = true;
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (upper || lower || (c >= 48 && c <= 57) || c >= 128) alnum = true;
    if (upper || lower) {
      letters++;
      if (upper) uppers++;
      if (firstLetterUpper < 0) {
        firstLetterUpper = upper ? 1 : 0;
        firstLetter = i;
      } else if (letters === 2 && lower) secondLetterLower = true;
      if (upper && prevLower) lowerThenUpper = true;
      prevLower = lower;
      lastLetter = i;
    } else prevLower = false;
  }
  let traits = 0;
  if (masked) traits |= MASKED;
  if (!alnum) traits |= PURE;
  if (len > 0 && units[from] === 91 && closes) traits |= BRACKETED;
  if (letters >= 2 && uppers === letters && upperRun(units, firstLetter, lastLetter)) traits |= UPPER;
  if (lowerThenUpper || (firstLetterUpper === 1 && secondLetterLower)) traits |= CODE;
  if (letters > 0) traits |= HAS_LETTER;
  if (isLevel(units, from, end)) traits |= LEVEL;
  return traits;
}

/** The traits of a token given as a string (tests, and callers without code units). */
export function traitsOf(text: string): TokenTraits {
  return traitsOfUnits(
    Uint16Array.from(text, (c) => c.charCodeAt(0)),
    0,
    text.length,
  );
}

/**
 * Whether the letters of an all-capitals token form one run from its first letter to its last, joined
 * by nothing but capitals and `_` (`CONTAINER_REMOTE_LAUNCH`, `(GET)`; not `A1B` or `A-B`).
 */
function upperRun(units: Uint16Array, first: number, last: number): boolean {
  for (let i = first + 1; i < last; i++) {
    const c = units[i]!;
    if (!((c >= 65 && c <= 90) || c === 95)) return false;
  }
  return true;
}

/** Whether `units[from, end)` is a log level (see {@link LEVEL_WORDS}). */
function isLevel(units: Uint16Array, from: number, end: number): boolean {
  let a = from;
  let b = end;
  if (a < b && (units[a] === 91 || units[a] === 40 || units[a] === 60)) a++;
  if (a < b) {
    const c = units[b - 1]!;
    if (c === 93 || c === 41 || c === 62 || c === 58) b--;
  }
  const n = b - a;
  if (n === 0 || n > LONGEST_LEVEL) return false;
  for (const word of LEVEL_WORDS) {
    if (word.length !== n) continue;
    let k = 0;
    // ASCII letters only: `| 32` lower-cases a capital and leaves a small letter as it is
    while (k < n && (units[a + k]! | 32) === (word.charCodeAt(k) | 32) && isAsciiLetter(units[a + k]!)) k++;
    if (k === n) return true;
  }
  return false;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Should skeletons that agree everywhere but at one position, where they hold `values` (with line counts
 * `weights`), be one template? The position is a variable when:
 * - every value is a bracketed context field (`[main]`, `[IPC Server handler 3 on 9000]`), or every
 *   value is a log level (`INFO` / `WARN`: the message, not its level, makes the event);
 * - some value is already a pure variable, unless a frequent constant faces a rare variable variant
 *   (`HTTPS` ×600 beside `SOCKS5` ×2 is another event), or making the position variable would leave the
 *   message without distinctive text ({@link absorbable});
 * - otherwise (all plain words) when it takes four or more values none of which looks like message text
 *   (ALL-CAPS event names, camelCase or Capitalized identifiers, pure punctuation). Two or three plain
 *   words (`opened` / `closed`, `normal` / `warning`) are most often what tells two events apart.
 */
export function positionIsVariable(
  values: readonly TokenTraits[],
  weights: readonly number[],
  tokens: readonly TokenTraits[],
  position: number,
): boolean {
  let allBracketed = true;
  let allLevels = true;
  for (const v of values) {
    if ((v & BRACKETED) === 0) allBracketed = false;
    if ((v & LEVEL) === 0) allLevels = false;
  }
  if (allBracketed || allLevels) return true;
  let pureWeight = 0;
  let maxOther = 0;
  for (let k = 0; k < values.length; k++) {
    if ((values[k]! & PURE) !== 0) pureWeight += weights[k]!;
    else if (weights[k]! > maxOther) maxOther = weights[k]!;
  }
  if (pureWeight > 0) {
    if (!absorbable(tokens, position)) return false;
    return !(maxOther >= 20 && maxOther >= 8 * pureWeight);
  }
  for (const v of values) if ((v & (UPPER | CODE)) !== 0 || (v & HAS_LETTER) === 0) return false;
  return values.length >= 4;
}

/**
 * May position `p` become a variable? Only when the message keeps some constant text after it, or at
 * least three constant tokens before it: otherwise a short message's one distinctive word would be
 * swallowed (`INFO [main] x: jetty-6.1.26` and `INFO [main] x: nodeBlacklistingEnabled:true` are not one
 * event).
 */
export function absorbable(tokens: readonly TokenTraits[], p: number): boolean {
  for (let q = p + 1; q < tokens.length; q++) if ((tokens[q]! & MASKED) === 0) return true;
  let before = 0;
  for (let q = 0; q < p; q++) if ((tokens[q]! & MASKED) === 0) before++;
  return before >= 3;
}

/**
 * Can two different tokens at the same position of same-shaped templates be one variable without
 * evidence?
 */
export function compatible(a: TokenTraits, b: TokenTraits): boolean {
  return ((a | b) & PURE) !== 0 || (a & b & BRACKETED) !== 0;
}

/** The mask token's text. */
export const MASK_TOKEN = MASK;
