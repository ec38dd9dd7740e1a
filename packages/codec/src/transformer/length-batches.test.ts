import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchByLength } from './length-batches.js';

describe('batchByLength', () => {
  it('covers every line once, in batches of non-decreasing length within budget', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (lengths, tokens, rows) => {
          const batches = batchByLength(lengths, 2, { tokens, rows });
          const seen = batches.flatMap((b) => Array.from(b.rows)).sort((a, b) => a - b);
          expect(seen).toEqual(lengths.map((_, i) => i));
          let previous = -1;
          for (const b of batches) {
            const ls = Array.from(b.rows, (i) => lengths[i]!);
            expect(b.width).toBe(Math.max(...ls));
            expect(ls[0]!).toBeGreaterThanOrEqual(previous);
            previous = b.width;
            expect(b.rows.length).toBeLessThanOrEqual(rows);
            // A batch only outgrows the token budget when one line alone does.
            if (b.rows.length > 1) expect(b.rows.length * (b.width + 2)).toBeLessThanOrEqual(tokens);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps padding small: similar lengths share a batch', () => {
    const lengths = [30, 2, 29, 3, 31, 2];
    const batches = batchByLength(lengths, 0, { rows: 3 });
    expect(batches.map((b) => Array.from(b.rows, (i) => lengths[i]))).toEqual([
      [2, 2, 3],
      [29, 30, 31],
    ]);
  });
});
