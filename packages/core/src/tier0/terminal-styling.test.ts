import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripStyling } from './terminal-styling.js';

/** The straightforward definition the hand-written scan must agree with. */
function stripStylingByPattern(text: string, verbatimAt?: (offset: number) => boolean): string | null {
  if (!text.includes('\u001b')) return null;
  const plain = text.replace(/\u001b\[[0-9;:]*[mK]/g, (code: string, offset: number) =>
    verbatimAt?.(offset) === true ? code : '',
  );
  return plain.length === text.length ? null : plain;
}

/** Texts dense in escape codes, broken codes and their parameter characters. */
const styled = fc
  .array(
    fc.constantFrom(
      '\u001b',
      '[',
      '0',
      '3',
      '1',
      ';',
      ':',
      'm',
      'K',
      'H',
      'x',
      ' ',
      '\n',
      '\u001b[',
      '\u001b[0m',
    ),
    {
      maxLength: 60,
    },
  )
  .map((parts) => parts.join(''));

describe('stripStyling', () => {
  it('removes colour and erase-line codes, keeps the rest', () => {
    expect(stripStyling('\u001b[1;31merror\u001b[0m: \u001b[Kdone\u001b[2J')).toBe('error: done\u001b[2J');
    expect(stripStyling('plain')).toBeNull();
    expect(stripStyling('\u001b[2J only a clear')).toBeNull();
  });

  it('agrees with the pattern on random texts, with and without verbatim offsets', () => {
    fc.assert(
      fc.property(styled, fc.integer({ min: 1, max: 7 }), (text, step) => {
        expect(stripStyling(text)).toBe(stripStylingByPattern(text));
        const verbatimAt = (offset: number): boolean => offset % step === 0;
        expect(stripStyling(text, verbatimAt)).toBe(stripStylingByPattern(text, verbatimAt));
      }),
      { numRuns: 2000 },
    );
  });
});
