import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES, writeBlockFeatures } from './block-features.js';
import { type LabelledBlock, trainBlockLogistic } from './block-logistic-trainer.js';
import { LogisticKeepModel } from './logistic-keep-model.js';
import { removedAtRecall, rocAuc } from './removal-curve.js';
import { TOKEN_FEATURE_NAMES } from './token-need.js';

/** Generated tool outputs: timing lines nobody needs, and one line naming the task's module, needed. */
function blocks(count: number): LabelledBlock[] {
  return Array.from({ length: count }, (_, b) => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      i === 10 + (b % 9)
        ? `error in src/module${b}.ts: cannot resolve the import of helper${b}`
        : `${i * 13}ms ${b}`,
    );
    return {
      lines,
      needed: Uint8Array.from(lines, (l) => (l.startsWith('error') ? 1 : 0)),
      context: { task: `fix module${b}`, input: 'npm test', recent: [] },
      group: `session-${b % 6}`,
    };
  });
}

describe('trainBlockLogistic', () => {
  it('learns the needed lines, held out by group, and the weights load as a block keep model', async () => {
    const result = trainBlockLogistic(blocks(30));
    expect(result.weights.version).toBe(4);
    expect(result.heldOut.rocAuc).toBeGreaterThan(0.95);
    expect(result.heldOut.removedAt99).toBeGreaterThan(0.5);
    const model = new LogisticKeepModel(result.weights);
    const [b] = blocks(31).slice(30);
    const scores = await model.scoreLines(b!.lines, 'log', b!.context);
    const best = scores.indexOf(Math.max(...scores));
    expect(b!.needed[best]).toBe(1);
  });

  it('is deterministic', () => {
    expect(trainBlockLogistic(blocks(12)).weights).toEqual(trainBlockLogistic(blocks(12)).weights);
  });
});

describe('cost term', () => {
  it('leaves a line of the reference length at its fitted probability and ranks shorter lines higher', async () => {
    const weights = Array.from({ length: BLOCK_FEATURE_COUNT }, (_, i) => (i === 0 ? 0.5 : 0));
    const model = new LogisticKeepModel({
      format: 'distil-logistic-keep-model',
      version: 4,
      features: [...BLOCK_FEATURE_NAMES],
      weights,
      costExponent: 1,
      costReference: 10,
      tokenPrior: { buckets: 8, baseRate: 0.5, smoothing: 2, counts: '' },
      tokenModel: { features: [...TOKEN_FEATURE_NAMES], weights: TOKEN_FEATURE_NAMES.map(() => 0) },
    });
    const [short, reference, long] = await model.scoreLines(
      ['a'.repeat(4), 'b'.repeat(40), 'c'.repeat(400)],
      'log',
    );
    expect(reference).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 6);
    expect(short).toBeGreaterThan(reference!);
    expect(long).toBeLessThan(reference!);
  });

  it('is part of the model id', () => {
    const base = trainBlockLogistic(blocks(12)).weights;
    const other = { ...base, costExponent: base.costExponent + 0.25 };
    expect(new LogisticKeepModel(other).id).not.toBe(new LogisticKeepModel(base).id);
  });
});

describe('block features', () => {
  it('are finite and in [0, 1] for any block and context', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { minLength: 1, maxLength: 20 }),
        fc.string(),
        fc.double({ noNaN: true }),
        (lines, task, need) => {
          const out = new Float64Array(lines.length * BLOCK_FEATURE_COUNT);
          writeBlockFeatures(
            lines,
            { task },
            out,
            0,
            undefined,
            lines.map(() => need),
          );
          return out.every((v) => Number.isFinite(v) && v >= 0 && v <= 1);
        },
      ),
    );
  });
});

describe('removal curve', () => {
  it('removes nothing needed at full recall and everything unneeded for a perfect ranking', () => {
    const needed = [1, 0, 1, 0];
    const cost = [1, 2, 3, 4];
    expect(removedAtRecall([0.9, 0.1, 0.8, 0.2], needed, cost, 1)).toBeCloseTo(0.6);
    expect(removedAtRecall([0.5, 0.5, 0.5, 0.5], needed, cost, 1)).toBe(0);
    expect(rocAuc([0.9, 0.1, 0.8, 0.2], needed)).toBe(1);
    expect(rocAuc([0.5, 0.5, 0.5, 0.5], needed)).toBe(0.5);
  });
});
