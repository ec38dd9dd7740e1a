import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeCounts } from './guard-lines.js';
import { coarseShape } from './line-shape.js';

describe('shapeCounts', () => {
  it('counts the lines of each coarse shape as a Map keyed by shape does', () => {
    const word = fc.constantFrom('Downloading', 'Installing', 'x', '1.2.3', '/tmp/a', 'ok', '', ' ', '\t');
    const text = fc.array(word, { maxLength: 6 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 80 }), fc.nat(5), (texts, spread) => {
        const repeats = Int32Array.from(texts, (_, u) => 1 + ((u * spread) % 4));
        const byShape = new Map<number, number>();
        texts.forEach((t, u) => {
          const s = coarseShape(t);
          byShape.set(s, (byShape.get(s) ?? 0) + repeats[u]!);
        });
        const expected = texts.map((t) => byShape.get(coarseShape(t))!);
        expect(Array.from(shapeCounts(texts, repeats))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
