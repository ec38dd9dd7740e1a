import type { Tensor, Tensor1D, Tensor2D } from '@tensorflow/tfjs';
import {
  bertLogits,
  type ForwardOptions,
  ParamTensors,
  type TokenBatch,
  tokenLossSum,
  tokenWeights,
} from './bert-forward.js';
import type { BertParams } from './bert-params.js';
import { tf } from './tfjs-runtime.js';

/** The result of one forward + backward pass over a batch. */
export interface GradientResult {
  /** Summed (weighted) token loss of the batch. */
  readonly lossSum: number;
  /** Summed loss weight (the denominator of the mean). */
  readonly weightSum: number;
  /** Unpadded tokens in the batch. */
  readonly tokens: number;
}

function batchTensors(batch: TokenBatch): { ids: Tensor2D; mask: Tensor2D } {
  return {
    ids: tf.tensor2d(batch.ids, [batch.rows, batch.seqLen], 'int32'),
    mask: tf.tensor2d(batch.mask, [batch.rows, batch.seqLen], 'int32'),
  };
}

/**
 * Gradient of the summed token loss with respect to every parameter, written into `out` (the flat
 * layout of `params`). Every tensor it makes is released before it returns.
 */
export function batchGradients(
  params: BertParams,
  batch: TokenBatch,
  keepWeight: number,
  out: Float32Array,
  options: ForwardOptions = {},
): GradientResult {
  const uploaded = ParamTensors.upload(params);
  const names = params.specs.map((s) => s.name);
  const weights = tokenWeights(batch, keepWeight);
  let weightSum = 0;
  let tokens = 0;
  for (let i = 0; i < weights.length; i++) {
    weightSum += weights[i] as number;
    tokens += batch.mask[i] as number;
  }
  try {
    const [value, ...grads] = tf.tidy(() => {
      const { ids, mask } = batchTensors(batch);
      const labels = tf.tensor1d(Int32Array.from(batch.labels), 'int32') as Tensor1D;
      const w = tf.tensor1d(weights, 'float32') as Tensor1D;
      const loss = (...list: Tensor[]) =>
        tokenLossSum(bertLogits(new ParamTensors(params.dims, list, names), ids, mask, options), labels, w);
      const result = tf.valueAndGrads(loss)(uploaded.list as Tensor[]);
      return [result.value, ...result.grads];
    });
    const lossSum = (value as Tensor).dataSync()[0] as number;
    grads.forEach((g, i) => {
      out.set(g.dataSync() as Float32Array, params.offsets[i] as number);
    });
    tf.dispose([value as Tensor, ...grads]);
    return { lossSum, weightSum, tokens };
  } finally {
    uploaded.dispose();
  }
}

/** Keep-probability (softmax of label 1) of every position of a batch, row-major [rows, seqLen]. */
export function batchKeepProbabilities(params: BertParams, batch: TokenBatch): Float32Array {
  const uploaded = ParamTensors.upload(params);
  try {
    const probs = tf.tidy(() => {
      const { ids, mask } = batchTensors(batch);
      const logits = bertLogits(uploaded, ids, mask);
      return tf.reshape(tf.slice(tf.softmax(logits), [0, 1], [-1, 1]), [-1]);
    });
    const data = probs.dataSync() as Float32Array;
    probs.dispose();
    return data;
  } finally {
    uploaded.dispose();
  }
}

/** Raw logits [rows·seqLen·labels] of a batch: what the ONNX export is checked against. */
export function batchLogits(params: BertParams, batch: TokenBatch): Float32Array {
  const uploaded = ParamTensors.upload(params);
  try {
    const logits = tf.tidy(() => {
      const { ids, mask } = batchTensors(batch);
      return bertLogits(uploaded, ids, mask);
    });
    const data = logits.dataSync() as Float32Array;
    logits.dispose();
    return data;
  } finally {
    uploaded.dispose();
  }
}

/** Kernel time in ms by kernel name for one gradient step (tf.profile): where a step's time goes. */
export async function profileGradientStep(
  params: BertParams,
  batch: TokenBatch,
): Promise<Map<string, number>> {
  const out = new Float32Array(params.count);
  const profile = await tf.profile(() => {
    batchGradients(params, batch, 1, out);
  });
  const byKernel = new Map<string, number>();
  for (const k of profile.kernels) byKernel.set(k.name, (byKernel.get(k.name) ?? 0) + Number(k.kernelTimeMs));
  return byKernel;
}
