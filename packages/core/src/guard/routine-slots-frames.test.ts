import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameKey, frameOf, maskedTokens } from './routine-slots.js';

describe('frameOf', () => {
  it('is frameKey of the masked tokens, for lines of three tokens or more, read without splitting', () => {
    const token = fc.oneof(
      fc.constantFrom(
        '*',
        'ok',
        '✖',
        'cache',
        'entry',
        'missing',
        'a=b',
        '12ms',
        'src/x.ts',
        '#3',
        '@u',
        '\\',
      ),
      fc.string({ unit: fc.constantFrom('a', 'Z', '1', '*', '/', '=', '-', '.'), maxLength: 4 }),
    );
    const space = fc.constantFrom(' ', '  ', '\t', ' \t ');
    const line = fc
      .tuple(fc.constantFrom('', ' ', '\t'), fc.array(fc.tuple(token, space), { maxLength: 6 }), token)
      .map(([lead, parts, last]) => lead + parts.map(([t, s]) => t + s).join('') + last);
    fc.assert(
      fc.property(line, (text) => {
        const tokens = maskedTokens(text);
        expect(frameOf(text)).toBe(tokens.length < 3 ? undefined : frameKey(tokens));
      }),
      { numRuns: 2000 },
    );
  });
});
