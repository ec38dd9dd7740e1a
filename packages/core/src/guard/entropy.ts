/**
 * Entropy scoring (spec: salience protection): a long token mixing letters and digits with high
 * character entropy is information-dense (a novel id format no fixed pattern anticipates).
 */

const TOKEN = /[A-Za-z0-9_+/=-]{12,}/g;
const MIN_BITS_PER_CHAR = 3.5;

/** Shannon entropy of a string's characters, in bits per character. */
export function bitsPerChar(token: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / token.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Whether a line holds a long mixed letter-and-digit token of high entropy. */
export function hasDenseToken(line: string): boolean {
  if (line.length < 12) return false;
  for (const match of line.matchAll(TOKEN)) {
    const token = match[0];
    if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) continue;
    if (bitsPerChar(token) >= MIN_BITS_PER_CHAR) return true;
  }
  return false;
}
