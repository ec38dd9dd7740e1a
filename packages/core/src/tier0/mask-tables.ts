/**
 * Character classes, flags and word lists shared by the skeleton scan (template-mask.ts) and the detailed
 * pass for mixed tokens (token-mask.ts). Tables are indexed by char code so that a character costs one
 * lookup; short words are packed into numbers so that the word lists are looked up without slicing.
 */

import { Buffer } from 'node:buffer';

/** The character that stands for a masked variable inside a skeleton (templates print it as `<*>`). */
export const MASK = '\u0000';
/** Stands for a space inside a bracketed group token (templates print it as a space). */
export const GROUP_SPACE = '\u0003';

/** Character classes (CLASS values): other punctuation, letter, digit, space, joiner, sign. */
export const OTHER = 0;
export const LETTER = 1;
export const DIGIT = 2;
export const SPACE = 3;
export const JOINER = 4;
export const SIGN = 5;

/** Class of each ASCII character. */
export const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) CLASS[c] = LETTER;
  else if (c >= 48 && c <= 57) CLASS[c] = DIGIT;
}
for (const ch of ' \t\v\f\r\n') CLASS[ch.charCodeAt(0)] = SPACE;
for (const ch of '.:/,_') CLASS[ch.charCodeAt(0)] = JOINER;
for (const ch of '-+') CLASS[ch.charCodeAt(0)] = SIGN;

/** `=`, `.`, `/`, `:` followed by a word character send a token to the detailed pass. */
export const SPECIAL = new Uint8Array(128);
for (const ch of '=./:') SPECIAL[ch.charCodeAt(0)] = 1;

/** Bit flags per ASCII code for the token scan: one table lookup answers every question it asks. */
export const F_LETTER = 1;
export const F_DIGIT = 2;
export const F_WORD = 3;
export const F_SPACE = 4;
export const F_END = 8; // whitespace or `|`: ends a token
export const F_SPECIAL = 16;
export const F_EQUALS = 32;
export const F_DOT = 64;
export const F_SLASH = 128;
export const FLAGS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = CLASS[c]!;
  FLAGS[c] = k === LETTER ? F_LETTER : k === DIGIT ? F_DIGIT : k === SPACE ? F_SPACE | F_END : 0;
  if (SPECIAL[c] === 1) FLAGS[c]! |= F_SPECIAL;
}
FLAGS[61]! |= F_EQUALS;
FLAGS[46]! |= F_DOT;
FLAGS[47]! |= F_SLASH;
FLAGS[124]! |= F_END;

/** FLAGS for a character past ASCII: a space or a letter. */
export function flagsOf(code: number): number {
  return classOf(code) === SPACE ? F_SPACE | F_END : F_LETTER;
}

/**
 * FLAGS for every UTF-16 code unit (128 KiB): the scans look a character up without first asking whether
 * it is ASCII. Only the ASCII part is touched on most logs, so it stays in cache.
 */
export const UNIT_FLAGS = new Uint16Array(65536);
for (let c = 0; c < 65536; c++) UNIT_FLAGS[c] = c < 128 ? FLAGS[c]! : flagsOf(c);
/** In UNIT_FLAGS only: `[`, `]` or `|`, the characters that end the search for a bracket group's end. */
export const F_BRACKET = 256;
for (const ch of '[]|') UNIT_FLAGS[ch.charCodeAt(0)]! |= F_BRACKET;

/** `|`, `[`, `]`. */
export const BAR = 124;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;

/** The CLASS of any character (past ASCII: space or letter). */
export function classOf(code: number): number {
  if (code < 128) return CLASS[code]!;
  return code === 0xa0 || code === 0x3000 || code === 0x2028 || code === 0x2029 ? SPACE : LETTER;
}

/** A letter or digit (any non-ASCII letter too). */
export function isWord(code: number): boolean {
  // charCodeAt past the end gives NaN: not a word character.
  return code < 128 ? (FLAGS[code]! & F_WORD) !== 0 : !Number.isNaN(code) && classOf(code) === LETTER;
}

/** A–Z or a–z. */
export function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** 0–9. */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * A short ASCII word packed into a number (5 bits a letter, case folded), so the word lists below are
 * looked up without slicing or lower-casing: -1 when the word is not pure ASCII letters of 1–10.
 */
export function packWord(text: string, start: number, end: number): number {
  if (end - start > 10 || end <= start) return -1;
  let key = 0;
  for (let j = start; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 128 || CLASS[c] !== LETTER) return -1;
    key = key * 32 + ((c | 32) & 31);
  }
  return key;
}

/** {@link packWord} over UTF-16 code units `t[start, end)`. */
export function packCodes(t: Uint16Array, start: number, end: number): number {
  if (end - start > 10 || end <= start) return -1;
  let key = 0;
  for (let j = start; j < end; j++) {
    const c = t[j]!;
    if (c >= 128 || CLASS[c] !== LETTER) return -1;
    key = key * 32 + ((c | 32) & 31);
  }
  return key;
}

/** The packed form of every word in a space-separated list. */
export function packedSet(words: string): ReadonlySet<number> {
  const set = new Set<number>();
  for (const w of words.split(' ')) if (w.length > 0) set.add(packWord(w, 0, w.length));
  return set;
}

/** Words that are values wherever they stand: calendar names and literals. */
export const VALUE_WORD_LIST =
  'jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august ' +
  'september october november december mon tue wed thu fri sat sun monday tuesday wednesday thursday ' +
  'friday saturday sunday true false null none nil undefined nan';
export const VALUE_WORDS = packedSet(VALUE_WORD_LIST);
/** Units that follow a number: `1.17 KB`, `<1 sec` are one variable, not a variable and a word. */
export const UNIT_WORD_LIST =
  'b kb mb gb tb pb kib mib gib tib byte bytes ms us ns s sec secs second seconds min mins minute minutes h hr hrs hour hours';
export const UNIT_WORDS = packedSet(UNIT_WORD_LIST);
/** File extensions: `chrome.exe`, `cbscore.dll` name things (variables) although they have no digit. */
export const FILE_EXTENSIONS = packedSet(
  'exe dll so dylib jar war class py pyc js mjs cjs ts tsx jsx java kt go rs rb php c cc cpp h hpp cs sh bat ps ' +
    'log txt json xml yaml yml toml ini cfg conf properties html htm css md csv tsv dat db sqlite tmp bak zip ' +
    'gz tgz tar bz xz png jpg jpeg gif svg pdf lock pid sock',
);
/** Common top-level domains: `zummit.com` is a host name (a variable) although it has two parts only. */
export const TOP_LEVEL_DOMAINS = packedSet(
  'com net org edu gov mil int io co uk de fr jp cn ru br in it nl au ca es info biz local lan internal',
);

/**
 * Quick filter for the word lists: `[first letter × 16 + token length]` is 1 when some listed word with
 * that first letter fits a token of that length (the word plus up to two punctuation marks).
 */
export const LISTED_SHAPES = new Uint8Array(26 * 16);
for (const words of [VALUE_WORD_LIST, UNIT_WORD_LIST]) {
  for (const w of words.split(' ')) {
    for (let len = w.length; len <= Math.min(12, w.length + 2); len++)
      LISTED_SHAPES[(w.charCodeAt(0) - 97) * 16 + len] = 1;
  }
}

/**
 * Second filter, on the token's one word: `[(first letter × 26 + last letter) × 11 + word length]` is 1
 * when some listed word has that first letter, last letter and length (1–10).
 */
export const LISTED_WORDS = new Uint8Array(26 * 26 * 11);
for (const words of [VALUE_WORD_LIST, UNIT_WORD_LIST]) {
  for (const w of words.split(' ')) {
    if (w.length <= 10)
      LISTED_WORDS[((w.charCodeAt(0) - 97) * 26 + w.charCodeAt(w.length - 1) - 97) * 11 + w.length] = 1;
  }
}

/** `.`, `:`, `/`, `,`, `_`, `-` or `+`. */
export function isJoinerOrSign(code: number): boolean {
  // . : / , _ - +
  return (
    code === 46 || code === 58 || code === 47 || code === 44 || code === 95 || code === 45 || code === 43
  );
}

/** Cheap pre-check before packing a word: does any listed word start with its letter at its length? */
export function mayBeListed(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start) | 32;
  return c >= 97 && c <= 122 && end - start <= 12 && LISTED_SHAPES[(c - 97) * 16 + end - start] === 1;
}

/** `-` or `+`. */
export function isSign(code: number): boolean {
  return code === 45 || code === 43;
}

/** Is the ASCII word `t[start, end)` (UTF-16 code units) in the packed word list? Words longer than 10 never are. */
export function isListedCodes(
  list: ReadonlySet<number>,
  t: Uint16Array,
  start: number,
  end: number,
): boolean {
  return end - start <= 10 && list.has(packCodes(t, start, end));
}

/**
 * Two UTF-16 code units packed in a 32-bit word, each ASCII digit replaced by `0` (0x30), without a branch
 * (SIMD within a register): with each unit's top bit forced on, subtracting 0x30 and 0x3a per unit cannot
 * borrow across units, and leaves the top bit set where the unit is at least 0x30, resp. 0x3a. A unit
 * whose own top bit is set is no digit.
 */
export function digitBlind(word: number): number {
  const high = word | 0x80008000;
  const digits = (high - 0x00300030) & ~(high - 0x003a003a) & ~word & 0x80008000;
  const units = Math.imul(digits >>> 15, 0xffff);
  return (word & ~units) | (0x00300030 & units);
}

/** Does this platform store typed arrays little-endian (as Node's utf16le encoding reads and writes)? */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The UTF-16 code units `units[0, count)` as a string. */
export function codesToString(units: Uint16Array, count: number): string {
  // Node's utf16le decoder copies code units as they are (lone surrogates too), in one native call.
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, count * 2).toString('utf16le');
  let text = '';
  for (let k = 0; k < count; k++) text += String.fromCharCode(units[k]!);
  return text;
}
