/**
 * A plain JavaScript forward pass of the BERT token classifier that tiny-model.test-helper.ts writes as
 * ONNX, in float64, one unpadded sequence at a time: the reference onnxruntime's batched, padded float32
 * answers are checked against.
 */
import type { BertWeights } from './tiny-model.test-helper.js';

const LN_EPS = 1e-12;

function linear(x: Float64Array, rows: number, w: Float32Array, b: Float32Array, cols: number): Float64Array {
  const inDim = x.length / rows;
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = b[c]!;
      for (let k = 0; k < inDim; k++) s += x[r * inDim + k]! * w[k * cols + c]!;
      out[r * cols + c] = s;
    }
  }
  return out;
}

function layerNorm(x: Float64Array, rows: number, g: Float32Array, b: Float32Array): Float64Array {
  const h = g.length;
  const out = new Float64Array(x.length);
  for (let r = 0; r < rows; r++) {
    let mean = 0;
    for (let k = 0; k < h; k++) mean += x[r * h + k]!;
    mean /= h;
    let variance = 0;
    for (let k = 0; k < h; k++) variance += (x[r * h + k]! - mean) ** 2;
    variance /= h;
    const inv = 1 / Math.sqrt(variance + LN_EPS);
    for (let k = 0; k < h; k++) out[r * h + k] = (x[r * h + k]! - mean) * inv * g[k]! + b[k]!;
  }
  return out;
}

/**
 * erf to ~1e-14: the Maclaurin series below 2.5, the continued fraction for erfc above. (Abramowitz &
 * Stegun 7.1.26, with its 1.5e-7 error, would be too coarse for a reference.)
 */
function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2.5) {
    // Maclaurin series: erf x = 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1)).
    let term = ax;
    let sum = ax;
    for (let n = 1; n < 60; n++) {
      term *= (-ax * ax) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Continued fraction for erfc at larger |x|.
  let f = 0;
  for (let n = 60; n >= 1; n--) f = n / 2 / (ax + f);
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / (ax + f);
  return Math.sign(x) * (1 - erfc);
}

/** Logits [tokens, labels] of one sequence (no padding), with token-type ids all 0. */
export function bertLogits(weights: BertWeights, ids: readonly number[]): Float64Array {
  const { hidden: h, heads, intermediate: f, labels } = weights.dims;
  const s = ids.length;
  const dh = h / heads;
  let x: Float64Array = new Float64Array(s * h);
  for (let t = 0; t < s; t++) {
    for (let k = 0; k < h; k++) {
      x[t * h + k] = weights.wordEmb[ids[t]! * h + k]! + weights.posEmb[t * h + k]! + weights.typeEmb[k]!;
    }
  }
  x = layerNorm(x, s, weights.embLnG, weights.embLnB);
  for (const l of weights.layers) {
    const q = linear(x, s, l.wq, l.bq, h);
    const k = linear(x, s, l.wk, l.bk, h);
    const v = linear(x, s, l.wv, l.bv, h);
    const context = new Float64Array(s * h);
    for (let head = 0; head < heads; head++) {
      for (let i = 0; i < s; i++) {
        const scores = new Float64Array(s);
        let max = Number.NEGATIVE_INFINITY;
        for (let j = 0; j < s; j++) {
          let dot = 0;
          for (let d = 0; d < dh; d++) dot += q[i * h + head * dh + d]! * k[j * h + head * dh + d]!;
          scores[j] = dot / Math.sqrt(dh);
          max = Math.max(max, scores[j]!);
        }
        let sum = 0;
        for (let j = 0; j < s; j++) {
          scores[j] = Math.exp(scores[j]! - max);
          sum += scores[j]!;
        }
        for (let d = 0; d < dh; d++) {
          let acc = 0;
          for (let j = 0; j < s; j++) acc += (scores[j]! / sum) * v[j * h + head * dh + d]!;
          context[i * h + head * dh + d] = acc;
        }
      }
    }
    const attended = linear(context, s, l.wo, l.bo, h);
    for (let i = 0; i < attended.length; i++) attended[i]! += x[i]!;
    const h1 = layerNorm(attended, s, l.ln1g, l.ln1b);
    const up = linear(h1, s, l.w1, l.b1, f);
    for (let i = 0; i < up.length; i++) up[i] = 0.5 * up[i]! * (1 + erf(up[i]! / Math.SQRT2));
    const down = linear(up, s, l.w2, l.b2, h);
    for (let i = 0; i < down.length; i++) down[i]! += h1[i]!;
    x = layerNorm(down, s, l.ln2g, l.ln2b);
  }
  return linear(x, s, weights.wc, weights.bc, labels);
}

/** The keep score the spec defines, from reference logits: mean of the top-3 keep-probabilities of the line's own tokens. */
export function referenceScore(weights: BertWeights, ids: readonly number[]): number {
  const logits = bertLogits(weights, ids);
  const labels = weights.dims.labels;
  const probs: number[] = [];
  // Skip [CLS] and [SEP]; a line with no tokens of its own is scored on them.
  const from = ids.length > 2 ? 1 : 0;
  const to = ids.length > 2 ? ids.length - 1 : ids.length;
  for (let t = from; t < to; t++) {
    const row = Array.from(logits.subarray(t * labels, (t + 1) * labels));
    const max = Math.max(...row);
    const exps = row.map((z) => Math.exp(z - max));
    probs.push(exps[1]! / exps.reduce((a, b) => a + b, 0));
  }
  probs.sort((a, b) => b - a);
  const top = probs.slice(0, 3);
  return top.reduce((a, b) => a + b, 0) / top.length;
}
