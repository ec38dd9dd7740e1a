import { addToken, allocateTable, type TokenTable } from './token-table.js';

/**
 * Reads a `.tiktoken` ranks file (tiktoken's format: one `<base64 of the token's bytes> <rank>` line per
 * token) straight from its bytes into a token table: two passes, the first to size the table, the second
 * to decode each token into it. No string is made per line, so building holds little beside the table.
 * Ranks must run 0, 1, 2, … in file order, as they do in every published encoding.
 */
export function tableFromTiktoken(file: Uint8Array): TokenTable {
  let tokenCount = 0;
  let poolBytes = 0;
  let longest = 0;
  for (let at = 0; at < file.length; ) {
    const space = skipTo(file, at, SPACE);
    const end = skipTo(file, space, NEWLINE);
    if (end > at) {
      if (space >= end) throw new Error(`ranks file: no rank at byte ${at}`);
      const length = decodedLength(file, at, space);
      poolBytes += length;
      if (length > longest) longest = length;
      tokenCount++;
    }
    at = end + 1;
  }
  const table = allocateTable({ tokenCount, poolBytes, longest });
  const token = new Uint8Array(longest);
  let rank = 0;
  for (let at = 0; at < file.length; ) {
    const space = skipTo(file, at, SPACE);
    const end = skipTo(file, space, NEWLINE);
    if (end > at) {
      if (readRank(file, space + 1, end) !== rank)
        throw new Error(`ranks file: line ${rank + 1} is not rank ${rank}`);
      addToken(table, rank, token, decodeBase64(file, at, space, token));
      rank++;
    }
    at = end + 1;
  }
  return table;
}

/** The index of the first `byte` at or after `from` (the file's length when there is none). */
function skipTo(file: Uint8Array, from: number, byte: number): number {
  let at = from;
  while (at < file.length && file[at] !== byte) at++;
  return at;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const EQUALS = 0x3d;

/** Each base64 digit's value by its ASCII code, -1 for a byte that is not one. */
const BASE64 = (() => {
  const values = new Int8Array(256).fill(-1);
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < digits.length; i++) values[digits.charCodeAt(i)] = i;
  return values;
})();

function decodedLength(file: Uint8Array, from: number, to: number): number {
  let digits = to - from;
  while (digits > 0 && file[from + digits - 1] === EQUALS) digits--;
  return Math.floor((digits * 6) / 8);
}

/** Decodes the base64 in file[from, to) into `out`; returns the bytes written. */
function decodeBase64(file: Uint8Array, from: number, to: number, out: Uint8Array): number {
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let i = from; i < to; i++) {
    const byte = file[i]!;
    if (byte === EQUALS) break;
    const value = BASE64[byte]!;
    if (value < 0) throw new Error(`ranks file: byte ${i} is not base64`);
    bits = ((bits << 6) | value) & 0x3fff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[written++] = (bits >>> held) & 0xff;
    }
  }
  return written;
}

function readRank(file: Uint8Array, from: number, to: number): number {
  let rank = 0;
  for (let i = from; i < to; i++) {
    const digit = file[i]! - 0x30;
    if (digit < 0 || digit > 9) {
      if (file[i] === 0x0d && i === to - 1) break;
      return -1;
    }
    rank = rank * 10 + digit;
  }
  return rank;
}
