import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSharedText, SharedTexts } from './shared-text.js';

/** Texts of up to ~200 K units: a short random piece, repeated. */
const longText = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }), fc.integer({ min: 1_000, max: 12_000 }))
  .map(([piece, times]) => piece.repeat(times));

describe('SharedTexts', () => {
  it('hands over every text exactly, lone surrogates and all, however buffers are reused', () => {
    const texts = new SharedTexts();
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary' }), longText), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean()),
        (batch, backs) => {
          const lent = batch.map((text) => texts.lend(text));
          // buffers lent at the same time are never the same memory
          expect(new Set(lent.map((shared) => shared.buffer)).size).toBe(lent.length);
          lent.forEach((shared, k) => {
            expect(readSharedText(shared)).toBe(batch[k]);
            if (backs[k] ?? true) texts.giveBack(shared);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lends a buffer given back again, and a bigger one when the text needs it', () => {
    const texts = new SharedTexts();
    const first = texts.lend('x'.repeat(1000));
    texts.giveBack(first);
    const again = texts.lend('y'.repeat(2000));
    expect(again.buffer).toBe(first.buffer);
    expect(readSharedText(again)).toBe('y'.repeat(2000));
    texts.giveBack(again);
    const big = texts.lend('z'.repeat(first.buffer.byteLength));
    expect(big.buffer).not.toBe(first.buffer);
    expect(readSharedText(big)).toBe('z'.repeat(first.buffer.byteLength));
  });
});
