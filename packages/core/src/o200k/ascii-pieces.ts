/**
 * The o200k pre-tokenizer (split-pattern.ts) hand-written for ASCII text: where the piece starting at
 * `start` ends, decided from character classes alone, or FALLBACK when a character it has to look at is
 * not ASCII (the regex then decides that one piece). The regex's Unicode property classes make it the
 * counter's largest cost: about three quarters of the time on CI logs, which are nearly all ASCII.
 *
 * The pattern's alternatives, first match wins, as they read on ASCII:
 *   1. an optional prefix (not CR, LF, a letter or a digit), upper* lower+, an optional contraction
 *   2. the same prefix, upper+ lower*, an optional contraction
 *   3. one to three digits
 *   4. an optional space, a run of punctuation (not whitespace, a letter or a digit), then CR, LF and /
 *   5. whitespace up to and including its last CR or LF
 *   6. whitespace but its last character, when a non-space follows (all of it at the end of the text)
 *   7. whitespace
 * The property test in ascii-pieces.test.ts holds every split here to the regex's.
 */

/** The start of the piece could not be decided on ASCII: let the regex cut it. */
export const FALLBACK = -1;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** CR and LF. */
const NEWLINE = 4;
/** The rest of JavaScript's `\s` in ASCII: tab, vertical tab, form feed, space. */
const SPACE = 5;
/** Everything else below 0x80 (controls included): neither `\s`, a letter nor a digit. */
const PUNCT = 6;
/** A character at or above 0x80. */
const WIDE = 7;
/** Past the end of the text. */
const END = 0;

const CLASS = (() => {
  const table = new Uint8Array(128).fill(PUNCT);
  for (let c = 0x41; c <= 0x5a; c++) table[c] = UPPER;
  for (let c = 0x61; c <= 0x7a; c++) table[c] = LOWER;
  for (let c = 0x30; c <= 0x39; c++) table[c] = DIGIT;
  table[0x0a] = NEWLINE;
  table[0x0d] = NEWLINE;
  for (const c of [0x09, 0x0b, 0x0c, 0x20]) table[c] = SPACE;
  return table;
})();

function classAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const unit = text.charCodeAt(i);
  return unit < 0x80 ? CLASS[unit]! : WIDE;
}

/** Where the piece starting at `start` ends, or FALLBACK. `start` is inside the text. */
export function asciiPieceEnd(text: string, start: number): number {
  const first = classAt(text, start);
  switch (first) {
    case UPPER:
    case LOWER:
      return lettersEnd(text, start);
    case DIGIT:
      return digitsEnd(text, start);
    case NEWLINE:
      return whitespaceEnd(text, start);
    case PUNCT:
    case SPACE: {
      const next = classAt(text, start + 1);
      if (next === WIDE) return FALLBACK;
      // 1 and 2: this character is the prefix of a word
      if (next === UPPER || next === LOWER) return lettersEnd(text, start + 1);
      if (first === PUNCT) return punctuationEnd(text, start);
      // 4, with its optional space
      if (text.charCodeAt(start) === 0x20 && next === PUNCT) return punctuationEnd(text, start + 1);
      return whitespaceEnd(text, start);
    }
    default:
      return FALLBACK;
  }
}

/** Alternatives 1 and 2 from the word's first letter: upper* lower+ or else upper+, then a contraction. */
function lettersEnd(text: string, from: number): number {
  let i = from;
  let c = classAt(text, i);
  while (c === UPPER) c = classAt(text, ++i);
  while (c === LOWER) c = classAt(text, ++i);
  // A letter, a mark or more of the word may lie beyond ASCII.
  if (c === WIDE) return FALLBACK;
  return contractionEnd(text, i);
}

/** Past `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve` or `'re` (any case) at `i`, else `i`. */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2;
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return i + 3;
  return i;
}

/** Alternative 3: at most three digits (a digit beyond ASCII could be the next one). */
function digitsEnd(text: string, from: number): number {
  let i = from + 1;
  for (; i < from + 3; i++) {
    const c = classAt(text, i);
    if (c === WIDE) return FALLBACK;
    if (c !== DIGIT) return i;
  }
  return i;
}

/** Alternative 4 from the punctuation's first character: the run, then any CR, LF and `/` after it. */
function punctuationEnd(text: string, from: number): number {
  let i = from;
  let c = classAt(text, i);
  while (c === PUNCT) c = classAt(text, ++i);
  if (c === WIDE) return FALLBACK;
  for (let unit = text.charCodeAt(i); unit === 0x0a || unit === 0x0d || unit === 0x2f; )
    unit = text.charCodeAt(++i);
  return i;
}

/** Alternatives 5, 6 and 7 over the whitespace run at `from`. */
function whitespaceEnd(text: string, from: number): number {
  let i = from;
  let lastNewline = -1;
  let c = classAt(text, i);
  for (; c === SPACE || c === NEWLINE; c = classAt(text, ++i)) if (c === NEWLINE) lastNewline = i;
  // Beyond ASCII the run could go on (a no-break space, an ideographic space).
  if (c === WIDE) return FALLBACK;
  if (lastNewline >= 0) return lastNewline + 1;
  if (c === END || i - from === 1) return i;
  return i - 1;
}
