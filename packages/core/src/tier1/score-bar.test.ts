import { DistilConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { selectLines } from './select-lines.js';

const tiers = DistilConfig.parse({}).tiers;

/** A block whose every line clears the threshold, `standouts` of them by far. */
function block(n: number, standouts: readonly number[]) {
  // lines of many shapes, so the noise dedup (which releases repeats of one shape) stays out of it
  const words = [
    'alpha',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'zeta',
    'eta',
    'theta',
    'iota',
    'kappa',
    'lambda',
  ];
  const lines = Array.from(
    { length: n },
    (_, i) => `${words.slice(0, 1 + (i % 11)).join(' ')} ${'='.repeat(1 + (i % 13))} ${i}`,
  );
  const scores = Float32Array.from(lines, (_, i) => (standouts.includes(i) ? 0.95 : 0.7));
  return { lines, guard: new Uint8Array(n), fixed: new Uint8Array(n), scores };
}

const kept = (keep: Uint8Array): number[] => [...keep.keys()].filter((i) => keep[i] === 1);

describe('the bar a line clears by its score, relative to its block', () => {
  it('in a long block where most lines clear the threshold, keeps the ones that stand out', () => {
    const standouts = [100, 250, 390];
    const keep = selectLines(block(400, standouts), tiers);
    expect(kept(keep)).toEqual(standouts);
  });

  it('in a short block, keeps every line that clears the threshold', () => {
    const keep = selectLines(block(50, [10]), tiers);
    expect(kept(keep)).toHaveLength(50);
  });

  it('in a long block where few lines clear it, the threshold alone decides', () => {
    const signals = block(400, []);
    for (let i = 0; i < 400; i++) signals.scores[i] = i % 20 === 0 ? 0.7 : 0.1;
    expect(kept(selectLines(signals, tiers))).toHaveLength(20);
  });

  it('a learned model scoring most lines high never raises the bar on what the rules keep by their own', () => {
    const signals = block(400, []);
    // the rules keep every twentieth line; a learned model scores every line high (floored at the rules)
    const floor = Float32Array.from(signals.scores, (_, i) => (i % 20 === 0 ? 0.7 : 0.1));
    const scores = Float32Array.from(floor, (rules, i) => Math.max(rules, i % 20 === 0 ? 0.7 : 0.8));
    const keep = selectLines({ ...signals, scores, floor }, tiers);
    for (let i = 0; i < 400; i += 20) expect(keep[i]).toBe(1);
    const rulesAlone = selectLines({ ...signals, scores: floor }, tiers);
    expect(kept(rulesAlone).every((i) => keep[i] === 1)).toBe(true);
  });
});
