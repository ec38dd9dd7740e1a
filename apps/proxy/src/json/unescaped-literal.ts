import { isUtf8 } from 'node:buffer';
import type { DecodedLiteral } from './json-literal.js';

const BACKSLASH = 0x5c;

/** Scratch for the unescaped bytes, reused up to this size; a longer literal gets one of its own. */
const KEEP_SCRATCH_BYTES = 2 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(0);

/** A scratch buffer of at least `bytes`: the kept one, grown, or one for this literal alone. */
function scratchFor(bytes: number): Buffer {
  if (bytes > KEEP_SCRATCH_BYTES) return Buffer.allocUnsafe(bytes);
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, 64 * 1024));
  return scratch;
}

/**
 * A long JSON string literal (quotes included) decoded from its bytes: its escapes are undone into a
 * scratch buffer and the result decoded once. The obvious decode (`toString` of the literal, then
 * `JSON.parse` of that) makes two strings of the literal's size; V8 gives each string over 128 KB memory
 * of its own, and on a VM every page of it costs a fault when first written (~0.85 ms per 200 KB string
 * here). This makes one, the text itself, so a new 200 KB tool result costs the event loop ~1 ms less.
 *
 * Null (the caller parses it instead, which throws on invalid JSON) for anything but one literal in valid
 * UTF-8, free of raw control characters and raw quotes, with JSON's escapes only, none standing for a
 * lone surrogate (UTF-8 cannot hold one): the text is then exactly what JSON.parse gives, and `canonical`
 * what canonicalEscapes says.
 */
export function unescapedLiteral(raw: Buffer, start: number, end: number): DecodedLiteral | null {
  const body = raw.subarray(start + 1, end - 1);
  if (!isUtf8(body) || hasControlByte(body)) return null;
  const out = scratchFor(body.length);
  let written = 0;
  let canonical = true;
  let from = 0;
  // every `"` inside must be an escape's: a raw one would end the literal where the range does not
  let quotes = 0;
  for (let q = body.indexOf(0x22); q >= 0; q = body.indexOf(0x22, q + 1)) quotes++;
  for (let at = body.indexOf(BACKSLASH); at >= 0; at = body.indexOf(BACKSLASH, from)) {
    written += body.copy(out, written, from, at);
    // a backslash that ends the body (its literal's quote escaped) escapes nothing
    const kind = at + 1 < body.length ? body[at + 1]! : -1;
    const simple = kind < 0 ? 0 : SIMPLE_ESCAPES[kind]!;
    if (simple !== 0) {
      out[written++] = simple;
      if (kind === 0x22) quotes--;
      if (kind === 0x2f) canonical = false; // `\/`: JSON.stringify leaves `/` as it is
      from = at + 2;
      continue;
    }
    if (kind !== 0x75) return null; // not an escape JSON has
    const unit = hexUnit(body, at + 2);
    if (unit < 0) return null;
    from = at + 6;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      // a surrogate pair becomes one four-byte character; a lone surrogate has no UTF-8
      const low =
        unit <= 0xdbff && body[from] === BACKSLASH && body[from + 1] === 0x75 ? hexUnit(body, from + 2) : -1;
      if (low < 0xdc00 || low > 0xdfff) return null;
      written = putUtf8(out, written, 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
      canonical = false;
      from += 6;
      continue;
    }
    if (!canonicalUnicodeEscape(body, at, unit)) canonical = false;
    written = putUtf8(out, written, unit);
  }
  if (quotes !== 0) return null;
  written += body.copy(out, written, from, body.length);
  return { text: out.toString('utf8', 0, written), canonical };
}

/** The byte each one-character escape stands for, by the byte after the backslash (0: none such). */
const SIMPLE_ESCAPES = (() => {
  const table = new Uint8Array(256);
  table[0x22] = 0x22; // \"
  table[0x5c] = 0x5c; // \\
  table[0x2f] = 0x2f; // \/
  table[0x62] = 0x08; // \b
  table[0x66] = 0x0c; // \f
  table[0x6e] = 0x0a; // \n
  table[0x72] = 0x0d; // \r
  table[0x74] = 0x09; // \t
  return table;
})();

/**
 * Whether the `\\u` escape at `at` (standing for `unit`) is one JSON.stringify writes: lower-case hex, for
 * a control character that has no short escape.
 */
function canonicalUnicodeEscape(body: Buffer, at: number, unit: number): boolean {
  if (unit >= 0x20 || unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d)
    return false;
  for (let k = at + 2; k < at + 6; k++) if (body[k]! >= 0x41 && body[k]! <= 0x46) return false;
  return true;
}

/** The code unit four hex digits at `at` spell (either case), or -1. */
function hexUnit(body: Buffer, at: number): number {
  if (at + 4 > body.length) return -1;
  let unit = 0;
  for (let k = at; k < at + 4; k++) {
    const c = body[k]!;
    const digit =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (digit < 0) return -1;
    unit = (unit << 4) | digit;
  }
  return unit;
}

/** Writes a code point (no surrogate) as UTF-8 at `at`; the offset past it. */
function putUtf8(out: Buffer, at: number, code: number): number {
  if (code < 0x80) {
    out[at] = code;
    return at + 1;
  }
  if (code < 0x800) {
    out[at] = 0xc0 | (code >> 6);
    out[at + 1] = 0x80 | (code & 0x3f);
    return at + 2;
  }
  if (code < 0x10000) {
    out[at] = 0xe0 | (code >> 12);
    out[at + 1] = 0x80 | ((code >> 6) & 0x3f);
    out[at + 2] = 0x80 | (code & 0x3f);
    return at + 3;
  }
  out[at] = 0xf0 | (code >> 18);
  out[at + 1] = 0x80 | ((code >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((code >> 6) & 0x3f);
  out[at + 3] = 0x80 | (code & 0x3f);
  return at + 4;
}

/**
 * Whether any byte is below 0x20 (JSON forbids them raw in a string). Four bytes at a time, with the
 * "has a byte less than n" word test (Anderson, Bit Twiddling Hacks): exact as a yes/no for n ≤ 128.
 */
function hasControlByte(bytes: Buffer): boolean {
  const offset = bytes.byteOffset;
  const head = (4 - (offset & 3)) & 3;
  if (bytes.length < head + 4) {
    for (let k = 0; k < bytes.length; k++) if (bytes[k]! < 0x20) return true;
    return false;
  }
  for (let k = 0; k < head; k++) if (bytes[k]! < 0x20) return true;
  const words = (bytes.length - head) >>> 2;
  const view = new Uint32Array(bytes.buffer, offset + head, words);
  for (let w = 0; w < words; w++) {
    const x = view[w]!;
    if (((x - 0x20202020) & ~x & 0x80808080) !== 0) return true;
  }
  for (let k = head + words * 4; k < bytes.length; k++) if (bytes[k]! < 0x20) return true;
  return false;
}
