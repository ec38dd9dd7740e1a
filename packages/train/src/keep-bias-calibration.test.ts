import { describe, expect, it } from 'vitest';
import { TINY_DIMS } from '../test/tiny-model.js';
import { initBertParams } from './bert-params.js';
import { calibrateKeepBias, shiftKeepBias, topKeepLogits } from './keep-bias-calibration.js';

describe('calibrateKeepBias', () => {
  it('moves an under-confident model’s operating point onto the threshold', () => {
    // Keep lines score around 0.3 and drop lines around 0.05: at 0.6 nothing is kept.
    const lines = [0.3, 0.32, 0.28, 0.05, 0.04, 0.06, 0.07].map((p) =>
      Float32Array.of(Math.log(p / (1 - p))),
    );
    const labels = [1, 1, 1, 0, 0, 0, 0];
    const c = calibrateKeepBias(lines, labels, 0.6);
    expect(c.devF1Before).toBe(0);
    expect(c.devF1After).toBe(1);
    expect(c.delta).toBeGreaterThan(0);
  });

  it('leaves a model that is already best at the threshold alone', () => {
    const lines = [0.9, 0.1].map((p) => Float32Array.of(Math.log(p / (1 - p))));
    expect(calibrateKeepBias(lines, [1, 0], 0.6).delta).toBe(0);
  });

  it('takes the top three content tokens, skipping [CLS] and [SEP]', () => {
    const probs = Float32Array.of(0.99, 0.2, 0.7, 0.5, 0.6, 0.99);
    const top = Array.from(topKeepLogits(probs, 0, 6), (z) => 1 / (1 + Math.exp(-z)));
    expect(top.map((p) => Number(p.toFixed(3)))).toEqual([0.7, 0.6, 0.5]);
  });

  it('shifts only the keep label’s bias', () => {
    const params = initBertParams(TINY_DIMS);
    shiftKeepBias(params, 1.5);
    expect(Array.from(params.viewOf('classifier.bias'))).toEqual([0, 1.5]);
  });
});
