import { unescapedLiteral } from './unescaped-literal.js';

/** A JSON string literal decoded: its text, and whether its escapes are JSON.stringify's own. */
export interface DecodedLiteral {
  readonly text: string;
  readonly canonical: boolean;
}

/**
 * Literals this long or longer are unescaped as bytes (see unescapedLiteral); shorter ones are parsed,
 * which costs less than setting up the byte pass.
 */
const UNESCAPE_FROM_BYTES = 16 * 1024;

/** Decodes one JSON string literal (quotes included) and checks its escapes. */
export function decodeLiteral(raw: Buffer, start: number, end: number): DecodedLiteral {
  if (end - start >= UNESCAPE_FROM_BYTES) {
    const decoded = unescapedLiteral(raw, start, end);
    if (decoded) return decoded;
  }
  return parsedLiteral(raw, start, end);
}

/** decodeLiteral by the book: the literal as a string, then JSON.parse (which throws on invalid JSON). */
function parsedLiteral(raw: Buffer, start: number, end: number): DecodedLiteral {
  const literal = raw.toString('utf8', start, end);
  return { text: JSON.parse(literal) as string, canonical: canonicalEscapes(literal) };
}

/**
 * Whether every escape in a piece of JSON text is the one JSON.stringify writes (ECMA-262
 * QuoteJSONString): `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00XX` in lower case for the other
 * control characters. `\/`, and `\u` for anything else (a non-ASCII character, a surrogate, upper-case
 * hex), are valid JSON that JSON.stringify would write differently.
 */
export function canonicalEscapes(text: string): boolean {
  for (let at = text.indexOf('\\/'); at >= 0; at = text.indexOf('\\/', at + 2)) {
    if (escapes(text, at)) return false;
  }
  for (let at = text.indexOf('\\u'); at >= 0; at = text.indexOf('\\u', at + 2)) {
    if (!escapes(text, at)) continue;
    const hex = text.slice(at + 2, at + 6);
    if (!/^00[01][0-9a-f]$/.test(hex)) return false;
    const code = Number.parseInt(hex, 16);
    if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
  }
  return true;
}

/** Whether the backslash at `at` starts an escape (it is not itself escaped by an odd run before it). */
function escapes(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
  return slashes % 2 === 0;
}
