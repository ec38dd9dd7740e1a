import { beforeAll, describe, expect, it } from 'vitest';
import { raggedBatch, syntheticLines, TINY_DIMS } from '../test/tiny-model.js';
import { initBertParams } from './bert-params.js';
import { trainBert } from './bert-trainer.js';
import { InProcessGradientEngine } from './gradient-engine.js';
import { batchGradients, batchKeepProbabilities, batchLogits } from './gradient-step.js';
import { ensureBackend, tf } from './tfjs-runtime.js';

beforeAll(async () => {
  await ensureBackend('wasm');
});

describe('custom gradients', () => {
  it('scatter-add embedding and explicit-transpose matMul gradients equal tfjs’s own', async () => {
    const params = initBertParams(TINY_DIMS, 3);
    const batch = raggedBatch();
    const fast = new Float32Array(params.count);
    const plain = new Float32Array(params.count);
    const a = batchGradients(params, batch, 2, fast);
    // tfjs's gather gradient needs UnsortedSegmentSum, which only the CPU backend has.
    await tf.setBackend('cpu');
    const b = batchGradients(params, batch, 2, plain, { plainGather: true, plainMatMul: true });
    await tf.setBackend('wasm');
    expect(a.lossSum).toBeCloseTo(b.lossSum, 4);
    let maxDiff = 0;
    let maxAbs = 0;
    for (let i = 0; i < fast.length; i++) {
      maxDiff = Math.max(maxDiff, Math.abs((fast[i] as number) - (plain[i] as number)));
      maxAbs = Math.max(maxAbs, Math.abs(plain[i] as number));
    }
    expect(maxAbs).toBeGreaterThan(0);
    expect(maxDiff).toBeLessThan(1e-4 * Math.max(1, maxAbs));
  });
});

describe('tensor hygiene', () => {
  it('leaves no tensors behind after gradients, probabilities and logits', () => {
    const params = initBertParams(TINY_DIMS, 4);
    const batch = raggedBatch(9);
    const out = new Float32Array(params.count);
    batchGradients(params, batch, 1, out);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      batchGradients(params, batch, 1, out);
      batchKeepProbabilities(params, batch);
      batchLogits(params, batch);
    }
    expect(tf.memory().numTensors).toBe(before);
  });

  it('trains an epoch on this thread without leaking, and the loss falls', async () => {
    const engine = await InProcessGradientEngine.start('wasm');
    const before = tf.memory().numTensors;
    const result = await trainBert(
      initBertParams(TINY_DIMS, 1),
      syntheticLines(600, 1),
      syntheticLines(100, 2),
      {
        engine,
        epochs: 4,
        learningRate: 3e-3,
        patience: 4,
        batchShape: { tokenBudget: 512, maxRows: 64 },
      },
    );
    expect(tf.memory().numTensors).toBe(before);
    const losses = result.history.map((h) => h.trainLoss);
    expect(losses.at(-1)).toBeLessThan((losses[0] as number) * 0.9);
    expect(result.history.every((h) => Number.isFinite(h.devLoss))).toBe(true);
  }, 60_000);
});
