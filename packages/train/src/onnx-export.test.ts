import { beforeAll, describe, expect, it } from 'vitest';
import { raggedBatch, TINY_DIMS } from '../test/tiny-model.js';
import { initBertParams } from './bert-params.js';
import { batchLogits } from './gradient-step.js';
import { exportBertToOnnx } from './onnx-export.js';
import { checkOnnxParity, onnxLogits } from './onnx-parity.js';
import { ensureBackend } from './tfjs-runtime.js';

beforeAll(async () => {
  await ensureBackend('wasm');
});

describe('exportBertToOnnx', () => {
  it('gives onnxruntime logits equal to tfjs’s within 1e-4 on a padded batch', async () => {
    // Larger-than-initial weights, so the check is not passed by near-zero logits.
    const params = initBertParams({ ...TINY_DIMS, numLayers: 2 }, 21);
    for (let i = 0; i < params.data.length; i++) params.data[i] = (params.data[i] as number) * 2;
    const batch = raggedBatch(3);
    expect(batch.mask.includes(0)).toBe(true);
    const tfjs = batchLogits(params, batch);
    const report = await checkOnnxParity(exportBertToOnnx(params), batch, tfjs);
    expect(Math.max(...Array.from(tfjs, Math.abs))).toBeGreaterThan(0.05);
    expect(report.ok).toBe(true);
    expect(report.maxAbsDiff).toBeLessThan(1e-4);
  });

  it('accepts any batch size and sequence length (symbolic dims)', async () => {
    const onnx = exportBertToOnnx(initBertParams(TINY_DIMS, 22));
    const one = {
      rows: 1,
      seqLen: 5,
      ids: Int32Array.of(2, 9, 10, 11, 3),
      mask: Int32Array.of(1, 1, 1, 1, 1),
      labels: new Uint8Array(5),
    };
    expect((await onnxLogits(onnx, one)).length).toBe(5 * 2);
    expect((await onnxLogits(onnx, raggedBatch(4))).length).toBe(raggedBatch(4).ids.length * 2);
  });
});
