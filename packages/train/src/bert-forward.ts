import type { Scalar, Tensor, Tensor1D, Tensor2D, Tensor3D } from '@tensorflow/tfjs';
import type { BertDims } from './bert-config.js';
import type { BertParams } from './bert-params.js';
import { embeddingLookup, matMulFast } from './fast-gradients.js';
import { tf } from './tfjs-runtime.js';

/** A padded batch: row-major [rows, seqLen] token ids, 1/0 attention mask, and per-token labels. */
export interface TokenBatch {
  readonly rows: number;
  readonly seqLen: number;
  readonly ids: Int32Array;
  readonly mask: Int32Array;
  /** 0/1 per token; ignored where `mask` is 0. */
  readonly labels: Uint8Array;
}

/** The parameter tensors of a model, looked up by HF name. */
export class ParamTensors {
  readonly #byName: Map<string, Tensor>;

  constructor(
    readonly dims: BertDims,
    readonly list: readonly Tensor[],
    names: readonly string[],
  ) {
    this.#byName = new Map(names.map((name, i) => [name, list[i] as Tensor]));
  }

  /** Uploads a flat parameter buffer as one tensor per parameter (the caller disposes them). */
  static upload(params: BertParams): ParamTensors {
    const list = params.specs.map((spec, i) => tf.tensor(params.view(i), spec.shape as number[], 'float32'));
    return new ParamTensors(
      params.dims,
      list,
      params.specs.map((s) => s.name),
    );
  }

  /** The tensor called `name`. */
  get(name: string): Tensor {
    const t = this.#byName.get(name);
    if (!t) throw new Error(`no parameter tensor ${name}`);
    return t;
  }

  /** Releases every tensor. */
  dispose(): void {
    for (const t of this.list) t.dispose();
  }
}

// Mask value added to attention scores of padding, the convention the ONNX export uses too.
const MASK_BIAS = -10000;

function layerNorm(x: Tensor2D, gain: Tensor, bias: Tensor, eps: number): Tensor2D {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, eps))), gain), bias) as Tensor2D;
}

/**
 * Which gradients the forward pass records. tfjs's own ones are there for tests and the benchmark
 * baseline: its gather gradient needs UnsortedSegmentSum, which the wasm backend does not even have.
 */
export interface ForwardOptions {
  /** Use tfjs's gather gradient instead of the scatter-add one (default false). */
  readonly plainGather?: boolean;
  /** Use tfjs's matMul gradient instead of the explicit-transpose one (default false). */
  readonly plainMatMul?: boolean;
}

type MatMul = <T extends Tensor2D | Tensor3D>(a: T, b: T) => T;
const plainMatMul: MatMul = (a, b) => tf.matMul(a, b) as typeof a;

function dense(mm: MatMul, x: Tensor2D, p: ParamTensors, prefix: string): Tensor2D {
  return tf.add(mm(x, p.get(`${prefix}.weight`) as Tensor2D), p.get(`${prefix}.bias`)) as Tensor2D;
}

/** GELU, exact form x·Φ(x) = x/2·(1 + erf(x/√2)) as BERT and the ONNX export use. */
function gelu(x: Tensor2D): Tensor2D {
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1)) as Tensor2D;
}

function selfAttention(
  mm: MatMul,
  x: Tensor2D,
  bias: Tensor,
  p: ParamTensors,
  prefix: string,
  rows: number,
  seq: number,
): Tensor2D {
  const { hiddenSize: H, numHeads: nh } = p.dims;
  const hd = H / nh;
  // [rows·seq, H] → [rows·heads, seq, hd]; keys go straight to [rows·heads, hd, seq] so the score product
  // is a plain matMul (no transposeB on the slow path).
  const heads = (t: Tensor2D, perm: number[], shape: [number, number, number]) =>
    tf.reshape(tf.transpose(tf.reshape(t, [rows, seq, nh, hd]), perm), shape) as Tensor3D;
  const q = heads(dense(mm, x, p, `${prefix}.query`), [0, 2, 1, 3], [rows * nh, seq, hd]);
  const kT = heads(dense(mm, x, p, `${prefix}.key`), [0, 2, 3, 1], [rows * nh, hd, seq]);
  const v = heads(dense(mm, x, p, `${prefix}.value`), [0, 2, 1, 3], [rows * nh, seq, hd]);
  const scores = tf.add(tf.reshape(tf.mul(mm(q, kT), 1 / Math.sqrt(hd)), [rows, nh, seq, seq]), bias);
  const probs = tf.reshape(tf.softmax(scores), [rows * nh, seq, seq]) as Tensor3D;
  const context = tf.reshape(mm(probs, v), [rows, nh, seq, hd]);
  return tf.reshape(tf.transpose(context, [0, 2, 1, 3]), [rows * seq, H]) as Tensor2D;
}

/**
 * BERT encoder + token-classification head (Devlin et al. 2019; HF BertForTokenClassification without
 * dropout). Token type ids are all 0 (one segment per line). Returns logits [rows·seq, labels].
 */
export function bertLogits(
  p: ParamTensors,
  ids: Tensor2D,
  mask: Tensor2D,
  options: ForwardOptions = {},
): Tensor2D {
  const mm: MatMul = options.plainMatMul ? plainMatMul : matMulFast;
  const [rows, seq] = ids.shape;
  const dims = p.dims;
  const H = dims.hiddenSize;
  const eps = dims.layerNormEps;
  if (seq > dims.maxPositions)
    throw new Error(`sequence length ${seq} exceeds ${dims.maxPositions} positions`);
  const table = p.get('bert.embeddings.word_embeddings.weight') as Tensor2D;
  const flatIds = tf.reshape(ids, [-1]);
  const words = options.plainGather ? tf.gather(table, flatIds) : embeddingLookup(table, flatIds);
  const positions = tf.slice(p.get('bert.embeddings.position_embeddings.weight'), [0, 0], [seq, H]);
  const typeRow = tf.slice(p.get('bert.embeddings.token_type_embeddings.weight'), [0, 0], [1, H]);
  const embedded = tf.reshape(tf.add(tf.add(tf.reshape(words, [rows, seq, H]), positions), typeRow), [
    rows * seq,
    H,
  ]);
  let x = layerNorm(
    embedded as Tensor2D,
    p.get('bert.embeddings.LayerNorm.weight'),
    p.get('bert.embeddings.LayerNorm.bias'),
    eps,
  );
  const bias = tf.reshape(tf.mul(tf.sub(1, tf.cast(mask, 'float32')), MASK_BIAS), [rows, 1, 1, seq]);
  for (let l = 0; l < dims.numLayers; l++) {
    const pre = `bert.encoder.layer.${l}`;
    const attended = dense(
      mm,
      selfAttention(mm, x, bias, p, `${pre}.attention.self`, rows, seq),
      p,
      `${pre}.attention.output.dense`,
    );
    x = layerNorm(
      tf.add(attended, x) as Tensor2D,
      p.get(`${pre}.attention.output.LayerNorm.weight`),
      p.get(`${pre}.attention.output.LayerNorm.bias`),
      eps,
    );
    const ffn = dense(mm, gelu(dense(mm, x, p, `${pre}.intermediate.dense`)), p, `${pre}.output.dense`);
    x = layerNorm(
      tf.add(ffn, x) as Tensor2D,
      p.get(`${pre}.output.LayerNorm.weight`),
      p.get(`${pre}.output.LayerNorm.bias`),
      eps,
    );
  }
  return dense(mm, x, p, 'classifier');
}

/**
 * Summed token cross-entropy over unpadded tokens (padding ignored), each keep token weighted by
 * `keepWeight`. A sum, not a mean, so gradients from several workers add up to one big batch's.
 */
export function tokenLossSum(logits: Tensor2D, labels: Tensor1D, weights: Tensor1D): Scalar {
  const logProbs = tf.logSoftmax(logits);
  const picked = tf.sum(tf.mul(logProbs, tf.oneHot(labels, logits.shape[1])), 1);
  return tf.neg(tf.sum(tf.mul(picked, weights))) as Scalar;
}

/** Per-token loss weights: 0 on padding, `keepWeight` on keep tokens, 1 elsewhere. */
export function tokenWeights(batch: TokenBatch, keepWeight: number): Float32Array {
  const w = new Float32Array(batch.ids.length);
  for (let i = 0; i < w.length; i++) w[i] = batch.mask[i] ? (batch.labels[i] ? keepWeight : 1) : 0;
  return w;
}
