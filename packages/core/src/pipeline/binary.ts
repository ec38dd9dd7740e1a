/**
 * Whether text is binary rather than something a model reads: a NUL byte, lone surrogates (which no UTF-8
 * store could give back byte for byte), or U+FFFD replacement characters in bulk, as bytes that were not
 * UTF-8 decode. A few replacement characters are content: a real CI log (LogChunks' web-starter-kit build)
 * carries 57 of them in 140k characters from a broken npm tree glyph, and they round-trip exactly, since
 * every caller hands over text that was valid UTF-8 (the CLI decodes files strictly, the proxy reads JSON).
 * Such blocks are passed through untouched.
 */
export function looksBinary(text: string): boolean {
  const sample = text.length > 65536 ? text.slice(0, 32768) + text.slice(-32768) : text;
  if (sample.includes('\u0000') || !text.isWellFormed()) return true;
  let replaced = 0;
  for (let i = sample.indexOf('\uFFFD'); i !== -1; i = sample.indexOf('\uFFFD', i + 1)) replaced++;
  return replaced > sample.length / 100;
}
