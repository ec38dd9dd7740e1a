import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traitsOf } from './template-merge-rules.js';
import { tokenTraits } from './template-token-cache.js';

const units = (s: string): Uint16Array => Uint16Array.from(s, (c) => c.charCodeAt(0));

describe('tokenTraits', () => {
  it('gives the traits traitsOf gives, whatever the hash and whatever was cached before (property)', () => {
    const token = fc.string({
      unit: fc.constantFrom('a', 'B', '[', ']', ':', '\u0000', 'I', 'N', 'F', 'O'),
      maxLength: 8,
    });
    // Few hash values, so that unequal tokens share one and must be told apart by their units.
    fc.assert(
      fc.property(fc.array(fc.tuple(token, fc.nat(3), fc.nat(4)), { maxLength: 40 }), (tokens) => {
        for (const [text, hash, pad] of tokens) {
          const padded = units('x'.repeat(pad) + text);
          expect(tokenTraits(padded, pad, text.length, hash)).toEqual(traitsOf(text));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('stays right when it fills up and starts again', () => {
    // More distinct tokens than the cache holds, twice over.
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 40_000; k++) {
        const text = `t${k.toString(36)}X`;
        expect(tokenTraits(units(text), 0, text.length, k * 7).text).toBe(text);
      }
    }
  });
});
