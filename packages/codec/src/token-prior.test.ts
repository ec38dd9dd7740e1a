import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_FEATURE_COUNT, writeBlockFeatures } from './block-features.js';
import { lineBuckets, readPrior, TokenPriorCounts, tokenBucket } from './token-prior.js';

const labelled = fc.array(
  fc.record({
    line: fc.array(fc.constantFrom('error', 'from', 'src/a.ts', 'deadbeef', '12ms', 'note', 'x'), {
      maxLength: 5,
    }),
    needed: fc.boolean(),
    group: fc.constantFrom('s1', 's2', 's3'),
  }),
  { maxLength: 40 },
);

const BUCKETS = 64;

describe('token prior', () => {
  it('hashes a token to the same bucket in range every time', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1 << 20 }), (token, buckets) => {
        const b = tokenBucket(token, buckets);
        return b === tokenBucket(token, buckets) && Number.isInteger(b) && b >= 0 && b < buckets;
      }),
    );
  });

  it('leaving a group out equals counting without it, and the stored counts read back to the same rates', () => {
    fc.assert(
      fc.property(labelled, (rows) => {
        const all = new TokenPriorCounts(BUCKETS);
        const without = new TokenPriorCounts(BUCKETS);
        for (const r of rows) {
          all.add(r.line.join(' '), r.needed, r.group);
          if (r.group !== 's1') without.add(r.line.join(' '), r.needed, r.group);
        }
        const left = all.prior('s1');
        const stored = readPrior(all.serialise());
        const full = all.prior();
        for (let b = 0; b < BUCKETS; b++) {
          const rate = full.rate(b);
          if (rate === undefined) expect(stored.rate(b)).toBeUndefined();
          else expect(stored.rate(b)).toBeCloseTo(rate, 12);
          const expected = without.prior().rate(b);
          // the smoothing target is the base rate of all rows, the only difference left
          expect(left.rate(b) === undefined).toBe(expected === undefined);
        }
      }),
    );
  });

  it('rates a token needed in every line of other sessions above one never needed', () => {
    const counts = new TokenPriorCounts();
    for (let i = 0; i < 20; i++) {
      counts.add(`error in module${i}`, true, `s${i % 4}`);
      counts.add(`12ms deadbeef${i}`, false, `s${i % 4}`);
    }
    const prior = counts.prior('s0');
    const rate = (t: string) => prior.rate(tokenBucket(t, prior.buckets))!;
    expect(rate('error')).toBeGreaterThan(0.8);
    expect(rate('12ms')).toBeLessThan(0.2);
    expect(prior.rate(tokenBucket('never-seen-token', prior.buckets))).toBeUndefined();
  });

  it('rejects malformed stored counts, naming the field', () => {
    expect(() => readPrior({ buckets: 8, baseRate: 0.5, smoothing: 2, counts: '9:1:0' })).toThrow(
      /tokenPrior\.counts/,
    );
    expect(() => readPrior({ buckets: 8, baseRate: 0.5, smoothing: 2, counts: '1:1:2' })).toThrow(
      /tokenPrior\.counts/,
    );
  });

  it('keeps every block feature finite and in [0, 1] with any prior', () => {
    fc.assert(
      fc.property(labelled, fc.array(fc.string(), { minLength: 1, maxLength: 10 }), (rows, lines) => {
        const counts = new TokenPriorCounts(BUCKETS);
        for (const r of rows) counts.add(r.line.join(' '), r.needed, r.group);
        const out = new Float64Array(lines.length * BLOCK_FEATURE_COUNT);
        writeBlockFeatures(lines, { task: 'fix src/a.ts' }, out, 0, counts.prior());
        return out.every((v) => Number.isFinite(v) && v >= 0 && v <= 1);
      }),
    );
    expect(lineBuckets('from from error', BUCKETS)).toHaveLength(
      new Set(lineBuckets('from error', BUCKETS)).size,
    );
  });
});
