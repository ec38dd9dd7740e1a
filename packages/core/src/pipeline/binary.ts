/**
 * Whether text is binary rather than something a model reads: a NUL byte, or U+FFFD replacement
 * characters left by decoding bytes that were not UTF-8, or lone surrogates (which no UTF-8 store could
 * give back byte for byte). Such blocks are passed through untouched.
 */
export function looksBinary(text: string): boolean {
  const sample = text.length > 65536 ? text.slice(0, 32768) + text.slice(-32768) : text;
  return sample.includes('\u0000') || sample.includes('\uFFFD') || !text.isWellFormed();
}
