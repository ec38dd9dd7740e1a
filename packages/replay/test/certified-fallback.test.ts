import { SalienceKeepModel } from '@distil/codec';
import { TierConfig } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyDial,
  CompressionLadder,
  certifyFallback,
  DEFAULT_TARGETS,
  divergenceBudget,
  type FallbackPlan,
  frontier,
  pipelineTransform,
  replayTurns,
  StructuralRunner,
  sameReplay,
  sumFrontiers,
  type TurnCertificate,
} from '../src/index.js';
import { headTailTransform, trajectoryArb } from './fixtures.js';

/** Re-runs the runner on the context each turn was given and checks it against the full context. */
async function equivalentUnder(
  plan: FallbackPlan,
  levels: readonly TurnCertificate['certified'][],
  t: Parameters<typeof replayTurns>[0],
  ladder: CompressionLadder,
): Promise<boolean[]> {
  const runner = new StructuralRunner();
  const out: boolean[] = [];
  for (const [i, turn] of replayTurns(t).entries()) {
    const context = await ladder.context(turn.reference, levels[i]!);
    out.push(sameReplay(await runner.decide(context, turn), await runner.decide(turn.reference, turn)));
  }
  expect(out).toHaveLength(plan.turns.length);
  return out;
}

const certificate = (turn: number, none: number, digest: number, digestAgrees: boolean): TurnCertificate => ({
  turn,
  tokens: { none, lossless: none, digest },
  digestAgrees,
  losslessAgrees: digestAgrees ? null : true,
  certified: digestAgrees ? 'digest' : 'lossless',
});

describe('divergenceBudget', () => {
  it('is floor((1 − target) × turns), immune to binary rounding', () => {
    expect(divergenceBudget(1, 40)).toBe(0);
    expect(divergenceBudget(0.95, 20)).toBe(1);
    expect(divergenceBudget(0.95, 19)).toBe(0);
    expect(divergenceBudget(0.9, 10)).toBe(1); // (1 − 0.9) × 10 = 0.9999999999999998 in floating point
    expect(divergenceBudget(0.7, 10)).toBe(3);
    expect(divergenceBudget(0, 7)).toBe(7);
    expect(() => divergenceBudget(1.2, 3)).toThrow(RangeError);
  });
});

describe('the equivalence dial', () => {
  const plan: FallbackPlan = {
    trajectory: 'hand-made',
    runner: 'structural',
    turns: [
      certificate(0, 1000, 400, true),
      certificate(1, 1000, 900, false), // digest saves 100 but diverges
      certificate(2, 1000, 300, false), // digest saves 700 but diverges
      certificate(3, 1000, 600, false), // saves 400
    ],
  };

  it('at 1 is certified fallback exactly', () => {
    const at1 = applyDial(plan, 1);
    expect(at1.levels).toEqual(['digest', 'lossless', 'lossless', 'lossless']);
    expect(at1).toMatchObject({ budget: 0, divergent: 0, equivalence: 1, saved: 600, tokens: 4000 });
  });

  it('spends the budget on the highest-saving divergent turns first', () => {
    const at05 = applyDial(plan, 0.5); // budget floor(0.5 × 4) = 2
    expect(at05.levels).toEqual(['digest', 'lossless', 'digest', 'digest']);
    expect(at05).toMatchObject({ budget: 2, divergent: 2, equivalence: 0.5, saved: 600 + 700 + 400 });
  });

  it('traces a monotone frontier', () => {
    const points = frontier(plan);
    expect(points.map((p) => p.target)).toEqual([...DEFAULT_TARGETS].sort((a, b) => b - a));
    expect(points.map((p) => p.saved)).toEqual([
      600, 600, 600, 600, 600, 600, 600, 600, 1300, 1300, 1300, 1700, 1800,
    ]);
  });
});

describe('certified fallback (property tests)', () => {
  it('is 100% decision-equivalent under the runner, on any trajectory', async () => {
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const ladder = new CompressionLadder(headTailTransform);
        const plan = await certifyFallback(t, { runner: new StructuralRunner(), ladder });
        const equivalent = await equivalentUnder(
          plan,
          plan.turns.map((c) => c.certified),
          t,
          ladder,
        );
        return equivalent.every(Boolean) && applyDial(plan, 1).equivalence === 1;
      }),
      { numRuns: 200 },
    );
  });

  it('is 100% equivalent with the real pipeline (salience keep model, tier-1 folds)', async () => {
    const tiers = TierConfig.parse({ minLines: 6, headLines: 1, tailLines: 1 });
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const transform = pipelineTransform({
          keepModel: new SalienceKeepModel(),
          store: new MemoryRestoreStore(),
          tiers,
        });
        const ladder = new CompressionLadder(transform);
        const plan = await certifyFallback(t, { runner: new StructuralRunner(), ladder });
        const equivalent = await equivalentUnder(
          plan,
          plan.turns.map((c) => c.certified),
          t,
          ladder,
        );
        return equivalent.every(Boolean);
      }),
      { numRuns: 40 },
    );
  });

  it('at 0.95: divergent turns never exceed the budget, savings are at least those at 1.0', async () => {
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const ladder = new CompressionLadder(headTailTransform);
        const plan = await certifyFallback(t, { runner: new StructuralRunner(), ladder });
        const at1 = applyDial(plan, 1);
        const at095 = applyDial(plan, 0.95);
        const actual = await equivalentUnder(plan, at095.levels, t, ladder);
        const divergent = actual.filter((ok) => !ok).length;
        return (
          divergent === at095.divergent &&
          divergent <= divergenceBudget(0.95, plan.turns.length) &&
          at095.saved >= at1.saved &&
          at095.equivalence >= 0.95
        );
      }),
      { numRuns: 200 },
    );
  });

  it('the frontier is monotone: lower targets never save less nor claim more equivalence', () => {
    const turnArb = fc
      .record({
        none: fc.integer({ min: 0, max: 5000 }),
        cut: fc.integer({ min: 0, max: 5000 }),
        agrees: fc.boolean(),
      })
      .map(({ none, cut, agrees }) => ({ none, digest: Math.max(0, none - cut), agrees }));
    fc.assert(
      fc.property(
        fc.array(turnArb, { minLength: 0, maxLength: 60 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
        (turns, targets) => {
          const plan: FallbackPlan = {
            trajectory: 'p',
            runner: 'r',
            turns: turns.map((t, i) => certificate(i, t.none, t.digest, t.agrees)),
          };
          const points = frontier(plan, targets);
          for (let k = 1; k < points.length; k++) {
            const [hi, lo] = [points[k - 1]!, points[k]!];
            if (lo.saved < hi.saved || lo.equivalence > hi.equivalence || lo.budget < hi.budget) return false;
          }
          return points.every((p) => p.divergent <= p.budget && p.equivalence >= p.target);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('sums frontiers of several trajectories point by point', () => {
    const a = frontier({ trajectory: 'a', runner: 'r', turns: [certificate(0, 100, 50, false)] }, [1, 0]);
    const b = frontier({ trajectory: 'b', runner: 'r', turns: [certificate(0, 300, 100, true)] }, [1, 0]);
    expect(sumFrontiers([a, b])).toEqual([
      { target: 1, turns: 2, budget: 0, divergent: 0, equivalence: 1, tokens: 400, saved: 200, savings: 0.5 },
      {
        target: 0,
        turns: 2,
        budget: 2,
        divergent: 1,
        equivalence: 0.5,
        tokens: 400,
        saved: 250,
        savings: 0.625,
      },
    ]);
  });
});
