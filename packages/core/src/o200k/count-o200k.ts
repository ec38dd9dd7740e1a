import { asciiPieceEnd, FALLBACK } from './ascii-pieces.js';
import { bytePairCount } from './byte-pair-count.js';
import { O200K_SPLIT_PATTERN } from './split-pattern.js';
import { rankOf, type TokenTable } from './token-table.js';

/**
 * o200k_base tokens in `text`, counted with `table`: tiktoken's `encode_ordinary` (special-token strings
 * are plain text). The text is cut into pieces by the o200k pattern; each piece's UTF-8 is one token when
 * the table has it whole, else as many as byte-pair merging leaves.
 *
 * Written here rather than taken from gpt-tokenizer: the library keeps o200k in JavaScript Maps and arrays
 * of strings, ~55 MB of RSS in every thread that counts, and a Map cannot be shared between worker
 * threads. The table here is ~4 MB of SharedArrayBuffer, built once per process and handed to workers.
 * Its counts equal gpt-tokenizer's on any text without U+FEFF (property test), and tiktoken's on every
 * tool output of the corpus. On U+FEFF gpt-tokenizer decodes merged bytes with a BOM-stripping
 * TextDecoder and splits tokens o200k has whole ("\uFEFF" alone: 2 there, 1 here and in tiktoken); and
 * JavaScript's `\s` takes U+FEFF where tiktoken's regex does not, so a piece next to one can still be cut
 * as gpt-tokenizer cuts it, not as tiktoken does ("x\uFEFF//": 3 here, 2 in tiktoken).
 */
export function countO200k(table: TokenTable, text: string): number {
  let count = 0;
  let at = 0;
  while (at < text.length) {
    const end = asciiPieceEnd(text, at);
    if (end !== FALLBACK) {
      count += countAsciiPiece(table, text, at, end);
      at = end;
      continue;
    }
    // Beyond ASCII the regex cuts the piece, from where the last one ended, as it would have on its own.
    SPLIT.lastIndex = at;
    const match = SPLIT.exec(text);
    if (match === null) break;
    count += countPiece(table, match[0]);
    at = SPLIT.lastIndex;
  }
  return count;
}

// One regex for the thread: counting is synchronous, and lastIndex is reset on every call.
const SPLIT = new RegExp(O200K_SPLIT_PATTERN, 'gu');

/** countPiece for text[start, end), all ASCII: its bytes are its UTF-16 units, and no slice is made for a piece the table has whole. */
function countAsciiPiece(table: TokenTable, text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 1) return 1;
  if (kept.length < length) return countPiece(table, text.slice(start, end));
  utf8 = kept;
  for (let i = 0; i < length; i++) utf8[i] = text.charCodeAt(start + i);
  if (rankOf(table, utf8, 0, length) >= 0) return 1;
  if (length > MERGED_KEY_UNITS) return bytePairCount(table, utf8, length);
  return mergedCount(table, text.slice(start, end), length);
}

function countPiece(table: TokenTable, piece: string): number {
  // Every byte is a token, and most pieces of a log are one ASCII character of punctuation.
  if (piece.length === 1 && piece.charCodeAt(0) < 0x80) return 1;
  const length = encodeUtf8(piece);
  // A piece with a lone surrogate (a JavaScript string can hold one, UTF-8 cannot) is merged from its
  // bytes, U+FFFD for the surrogate, as gpt-tokenizer does: it looks whole pieces up as strings.
  if (!wellFormed) return bytePairCount(table, utf8, length);
  if (rankOf(table, utf8, 0, length) >= 0) return 1;
  if (piece.length > MERGED_KEY_UNITS) return bytePairCount(table, utf8, length);
  return mergedCount(table, piece, length);
}

/**
 * The count of a piece that is no token of its own, its `length` UTF-8 bytes in `utf8`. Logs repeat
 * their words: a piece merged once is looked up the next time (~25% faster on CI logs).
 */
function mergedCount(table: TokenTable, piece: string, length: number): number {
  const known = merged.get(piece);
  if (known !== undefined) return known;
  const count = bytePairCount(table, utf8, length);
  if (merged.size >= MERGED_KEPT) merged.clear();
  // The key is a copy decoded from the bytes: the piece itself may be a slice that keeps the whole
  // text it was cut from alive for as long as the cache holds it.
  merged.set(DECODER.decode(utf8.subarray(0, length)), count);
  return count;
}

/** Merged pieces remembered with their count (under 1 MB), up to this many UTF-16 units each. */
const MERGED_KEPT = 8192;
const MERGED_KEY_UNITS = 64;
const merged = new Map<string, number>();
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** The last piece's UTF-8 (encodeUtf8): a buffer kept for the thread, or one of its own for a long piece. */
let utf8 = new Uint8Array(4096);
let kept = utf8;
/** Up to this many bytes the buffer is kept; a longer piece's goes with it, not staying in every thread. */
const KEPT_BYTES = 64 * 1024;
/** Whether the last piece encoded had no lone surrogate. */
let wellFormed = true;

/** Writes `piece` as UTF-8 into `utf8` (a lone surrogate as U+FFFD, as TextEncoder does); returns its bytes. */
function encodeUtf8(piece: string): number {
  const units = piece.length;
  // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
  if (kept.length < units * 3) {
    utf8 = new Uint8Array(units * 3);
    if (utf8.length <= KEPT_BYTES) kept = utf8;
  } else {
    utf8 = kept;
  }
  wellFormed = true;
  let at = 0;
  for (let i = 0; i < units; i++) {
    const unit = piece.charCodeAt(i);
    if (unit < 0x80) {
      utf8[at++] = unit;
    } else if (unit < 0x800) {
      utf8[at++] = 0xc0 | (unit >> 6);
      utf8[at++] = 0x80 | (unit & 0x3f);
    } else if (unit < 0xd800 || unit > 0xdfff) {
      utf8[at++] = 0xe0 | (unit >> 12);
      utf8[at++] = 0x80 | ((unit >> 6) & 0x3f);
      utf8[at++] = 0x80 | (unit & 0x3f);
    } else {
      const low = unit <= 0xdbff && i + 1 < units ? piece.charCodeAt(i + 1) : 0;
      if (low >= 0xdc00 && low <= 0xdfff) {
        const point = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        utf8[at++] = 0xf0 | (point >> 18);
        utf8[at++] = 0x80 | ((point >> 12) & 0x3f);
        utf8[at++] = 0x80 | ((point >> 6) & 0x3f);
        utf8[at++] = 0x80 | (point & 0x3f);
        i++;
      } else {
        wellFormed = false;
        utf8[at++] = 0xef;
        utf8[at++] = 0xbf;
        utf8[at++] = 0xbd;
      }
    }
  }
  return at;
}
