import type { TokenBatch } from './bert-forward.js';

/** How far the exported model's logits are from tfjs's on the same batch. */
export interface ParityReport {
  /** Largest absolute difference over every position (padding included). */
  readonly maxAbsDiff: number;
  readonly rows: number;
  readonly seqLen: number;
  /** Whether `maxAbsDiff` is within the tolerance. */
  readonly ok: boolean;
  readonly tolerance: number;
}

/** Runs an ONNX model with onnxruntime-node on a padded batch and returns its logits (flat). */
export async function onnxLogits(
  model: Uint8Array | string,
  batch: TokenBatch,
  threads = 1,
): Promise<Float32Array> {
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(model as Uint8Array, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  });
  try {
    const dims = [batch.rows, batch.seqLen];
    const int64 = (values: Int32Array) =>
      new ort.Tensor(
        'int64',
        BigInt64Array.from(values, (v) => BigInt(v)),
        dims,
      );
    const result = await session.run({
      input_ids: int64(batch.ids),
      attention_mask: int64(batch.mask),
      token_type_ids: int64(new Int32Array(batch.ids.length)),
    });
    const logits = result['logits'];
    if (!logits) throw new Error('the exported model has no "logits" output');
    return logits.data as Float32Array;
  } finally {
    await session.release();
  }
}

/**
 * Compares onnxruntime's logits with tfjs's on a padded batch (rows of different lengths, so padding and
 * the attention mask are exercised). The export is only trusted when they agree within `tolerance`.
 */
export async function checkOnnxParity(
  model: Uint8Array | string,
  batch: TokenBatch,
  tfjsLogits: Float32Array,
  tolerance = 1e-4,
): Promise<ParityReport> {
  const ortLogits = await onnxLogits(model, batch);
  if (ortLogits.length !== tfjsLogits.length) {
    throw new Error(`ONNX logits have ${ortLogits.length} values, tfjs ${tfjsLogits.length}`);
  }
  let maxAbsDiff = 0;
  for (let i = 0; i < ortLogits.length; i++) {
    maxAbsDiff = Math.max(maxAbsDiff, Math.abs((ortLogits[i] as number) - (tfjsLogits[i] as number)));
  }
  return {
    maxAbsDiff,
    rows: batch.rows,
    seqLen: batch.seqLen,
    ok: Number.isFinite(maxAbsDiff) && maxAbsDiff <= tolerance,
    tolerance,
  };
}
