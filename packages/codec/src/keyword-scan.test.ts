import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordScanner, MAX_FAMILIES, NON_ASCII } from './keyword-scan.js';

/** ASCII letters to lower case, nothing else: how a regular expression with the `i` flag compares. */
const foldAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** What scan must return, found the slow way. */
function reference(families: readonly (readonly string[])[], text: string): number {
  const folded = foldAscii(text);
  let mask = /[^\x00-\x7f]/.test(text) ? NON_ASCII : 0;
  families.forEach((words, k) => {
    if (words.some((word) => folded.includes(foldAscii(word)))) mask |= 1 << k;
  });
  return mask;
}

// A small alphabet, so that keywords overlap, share prefixes and suffixes, and occur in the texts often.
const keyword = fc.string({
  unit: fc.constantFrom('a', 'b', 'A', 'c', ' ', ':'),
  minLength: 1,
  maxLength: 5,
});
const text = fc.string({
  unit: fc.constantFrom('a', 'b', 'B', 'c', 'C', ' ', ':', 'x', 'é', '\u2028', '😀'),
  maxLength: 40,
});

describe('KeywordScanner', () => {
  it('finds a family exactly when one of its keywords occurs, ASCII letters compared without case', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(keyword, { maxLength: 4 }), { maxLength: 5 }),
        fc.array(text),
        (families, texts) => {
          const scanner = new KeywordScanner(families);
          for (const t of texts)
            expect(scanner.scan(t), JSON.stringify({ families, t })).toBe(reference(families, t));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('matches across real words, in any case', () => {
    const scanner = new KeywordScanner([['error', 'err!'], ['timed out', 'timeout'], ['%']]);
    expect(scanner.scan('npm ERR! code 1')).toBe(1);
    expect(scanner.scan('TypeError: x')).toBe(1);
    expect(scanner.scan('request Timed Out')).toBe(2);
    expect(scanner.scan('50% done, errors: 1')).toBe(1 | 4);
    expect(scanner.scan('all good')).toBe(0);
    expect(scanner.scan('tout va bien — merci')).toBe(NON_ASCII);
    expect(scanner.scan('')).toBe(0);
  });

  it('refuses keywords it cannot compare', () => {
    expect(() => new KeywordScanner([['']])).toThrow(/non-empty ASCII/);
    expect(() => new KeywordScanner([['café']])).toThrow(/non-empty ASCII/);
    expect(() => new KeywordScanner(Array.from({ length: MAX_FAMILIES + 1 }, () => ['a']))).toThrow(
      /at most/,
    );
  });
});
