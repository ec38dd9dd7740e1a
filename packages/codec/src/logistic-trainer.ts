import { createHash } from 'node:crypto';
import { FEATURE_COUNT, FEATURE_NAMES, writeFeatures } from './line-features.js';
import type { LineLogisticWeights, SplitMetrics } from './logistic-weights.js';
import { salienceOf } from './salience-keep-model.js';

/** Knobs of {@link trainLogisticKeepModel}; every one has the spec's default. */
export interface LogisticTrainingOptions {
  /** Full-batch gradient-descent steps (default 400). */
  readonly epochs?: number;
  /**
   * Step size (default 1.9 / L, with L = ¼ · mean ‖x‖² bounding the smoothness of the loss on this corpus:
   * the longest step that still provably converges, so 400 epochs get as far as they safely can).
   */
  readonly learningRate?: number;
  /** L2 penalty on every weight but the bias (default 1e-4). */
  readonly l2?: number;
  /** A line is labelled keep when the salience rules score it at least this (default 0.6). */
  readonly labelThreshold?: number;
  /** Share of distinct lines held out for testing, chosen by SHA-256 of the line (default 0.2). */
  readonly testFraction?: number;
  /** Recorded in the weights file as where the lines came from (default `(lines)`). */
  readonly corpus?: string;
  /** Recorded in the weights file: how many files the lines came from (default 0). */
  readonly files?: number;
}

/** The trained weights and the loss after each epoch (first to last). */
export interface LogisticTrainingResult {
  readonly weights: LineLogisticWeights;
  readonly losses: Float64Array;
}

/**
 * Whether `line` belongs to the held-out split: the first 32 bits of its SHA-256, read as a fraction, fall
 * below `testFraction`. The same line lands in the same split on every machine, with no random seed, and
 * repeated lines never straddle the split (spec: "Train/test split: deterministic, SHA-256 hash").
 */
export function isHeldOut(line: string, testFraction: number): boolean {
  const digest = createHash('sha256').update(line, 'utf8').digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000 < testFraction;
}

/** One split as a weighted design matrix: each distinct line once, with how often it occurred. */
interface Split {
  x: Float64Array;
  y: Float64Array;
  count: Float64Array;
  rows: number;
  total: number;
}

function buildSplits(lines: Iterable<string>, threshold: number, testFraction: number): [Split, Split] {
  // Distinct lines with their counts: the gradient of a repeated line is its count times one line's, so
  // folding duplicates gives the same optimum in a fraction of the work (logs repeat a lot).
  const occurrences = new Map<string, number>();
  for (const line of lines) occurrences.set(line, (occurrences.get(line) ?? 0) + 1);
  const parts = [
    { lines: [] as string[], counts: [] as number[] },
    { lines: [] as string[], counts: [] as number[] },
  ];
  for (const [line, n] of occurrences) {
    const part = parts[isHeldOut(line, testFraction) ? 1 : 0]!;
    part.lines.push(line);
    part.counts.push(n);
  }
  const [train, test] = parts.map(({ lines: rows, counts }) => {
    const x = new Float64Array(rows.length * FEATURE_COUNT);
    const y = new Float64Array(rows.length);
    let total = 0;
    for (let i = 0; i < rows.length; i++) {
      writeFeatures(rows[i]!, x, i * FEATURE_COUNT);
      y[i] = salienceOf(rows[i]!) >= threshold ? 1 : 0;
      total += counts[i]!;
    }
    return { x, y, count: Float64Array.from(counts), rows: rows.length, total };
  }) as [Split, Split];
  return [train, test];
}

/**
 * Mean weighted binary cross-entropy of `w` on a split, and its gradient into `grad` (without L2). The
 * nine-wide loops are spelt out over locals: this is the trainer's whole cost (rows × epochs), and V8 keeps
 * locals in registers where it would reload array slots.
 */
function lossAndGradient(w: Float64Array, s: Split, grad: Float64Array): number {
  const { x, y, count, rows } = s;
  const w0 = w[0]!,
    w1 = w[1]!,
    w2 = w[2]!,
    w3 = w[3]!,
    w4 = w[4]!,
    w5 = w[5]!,
    w6 = w[6]!,
    w7 = w[7]!,
    w8 = w[8]!;
  let g0 = 0,
    g1 = 0,
    g2 = 0,
    g3 = 0,
    g4 = 0,
    g5 = 0,
    g6 = 0,
    g7 = 0,
    g8 = 0;
  let loss = 0;
  for (let i = 0, o = 0; i < rows; i++, o += 9) {
    const x0 = x[o]!,
      x1 = x[o + 1]!,
      x2 = x[o + 2]!,
      x3 = x[o + 3]!,
      x4 = x[o + 4]!;
    const x5 = x[o + 5]!,
      x6 = x[o + 6]!,
      x7 = x[o + 7]!,
      x8 = x[o + 8]!;
    const z = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3 + w4 * x4 + w5 * x5 + w6 * x6 + w7 * x7 + w8 * x8;
    const yi = y[i]!;
    const c = count[i]!;
    // Both the probability and the loss from one exponential: with e = e^{-|z|}, log(1 + e^{-|z|}) keeps
    // the loss finite when p saturates.
    const e = Math.exp(-Math.abs(z));
    const p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    loss += c * (Math.max(z, 0) - z * yi + Math.log1p(e));
    const r = c * (p - yi);
    g0 += r * x0;
    g1 += r * x1;
    g2 += r * x2;
    g3 += r * x3;
    g4 += r * x4;
    g5 += r * x5;
    g6 += r * x6;
    g7 += r * x7;
    g8 += r * x8;
  }
  const n = s.total || 1;
  grad[0] = g0 / n;
  grad[1] = g1 / n;
  grad[2] = g2 / n;
  grad[3] = g3 / n;
  grad[4] = g4 / n;
  grad[5] = g5 / n;
  grad[6] = g6 / n;
  grad[7] = g7 / n;
  grad[8] = g8 / n;
  return loss / n;
}

/**
 * An upper bound on the smoothness constant L of the mean logistic loss: its Hessian is at most
 * ¼ · E[x xᵀ], whose largest eigenvalue is at most its trace ¼ · E‖x‖² (the L2 term, 1e-4, is negligible).
 * Gradient descent with any step below 2 / L converges on such a loss (Nesterov 2004, Introductory
 * Lectures on Convex Optimization, §2.1.5).
 */
function smoothness(s: Split): number {
  let sum = 0;
  for (let i = 0; i < s.rows; i++) {
    let sq = 0;
    for (let j = 0; j < FEATURE_COUNT; j++) sq += s.x[i * FEATURE_COUNT + j]! ** 2;
    sum += s.count[i]! * sq;
  }
  return (0.25 * sum) / (s.total || 1);
}

/** Accuracy, precision, recall and F1 (keep is the positive class) of `w` on a split, weighted by count. */
export function evaluateSplit(w: ArrayLike<number>, s: Split): SplitMetrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < s.rows; i++) {
    const o = i * FEATURE_COUNT;
    let z = 0;
    for (let j = 0; j < FEATURE_COUNT; j++) z += w[j]! * s.x[o + j]!;
    // A DECISION: line scores 1 at inference whatever the weights say; evaluate what is served.
    const keep = s.x[o + 1] === 1 || z >= 0;
    const c = s.count[i]!;
    if (keep && s.y[i] === 1) tp += c;
    else if (keep) fp += c;
    else if (s.y[i] === 1) fn += c;
    else tn += c;
  }
  const total = tp + fp + tn + fn;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return {
    lines: total,
    accuracy: total === 0 ? 0 : (tp + tn) / total,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
}

/**
 * Trains the logistic keep model (spec: "Logistic keep-model"): labels distilled from the salience rules
 * (keep when they score ≥ 0.6), a train/test split by SHA-256 of each line, then full-batch gradient descent
 * on binary cross-entropy with L2 (1e-4, 400 epochs by default), starting from zero weights. Everything is
 * deterministic: the same lines give the same weights, bit for bit. The held-out figures measure agreement
 * with the salience labels, not an independent ground truth.
 */
export function trainLogisticKeepModel(
  lines: Iterable<string>,
  options: LogisticTrainingOptions = {},
): LogisticTrainingResult {
  const epochs = options.epochs ?? 400;

  const l2 = options.l2 ?? 1e-4;
  const labelThreshold = options.labelThreshold ?? 0.6;
  const testFraction = options.testFraction ?? 0.2;
  if (!Number.isInteger(epochs) || epochs < 1)
    throw new Error(`epochs must be a positive integer, got ${epochs}`);
  if (!(l2 >= 0)) throw new Error(`l2 must be non-negative, got ${l2}`);
  if (!(testFraction >= 0 && testFraction < 1))
    throw new Error(`testFraction must be in [0, 1), got ${testFraction}`);

  const [train, test] = buildSplits(lines, labelThreshold, testFraction);
  if (train.rows === 0) throw new Error('no training lines: the corpus is empty or every line was held out');
  const learningRate = options.learningRate ?? 1.9 / smoothness(train);
  if (!(learningRate > 0)) throw new Error(`learningRate must be positive, got ${learningRate}`);
  const w = new Float64Array(FEATURE_COUNT);
  const grad = new Float64Array(FEATURE_COUNT);
  const losses = new Float64Array(epochs);
  for (let epoch = 0; epoch < epochs; epoch++) {
    let loss = lossAndGradient(w, train, grad);
    // The bias (index 0) is not penalised: shrinking it would only shift every score.
    for (let j = 1; j < FEATURE_COUNT; j++) {
      loss += 0.5 * l2 * w[j]! * w[j]!;
      grad[j]! += l2 * w[j]!;
    }
    for (let j = 0; j < FEATURE_COUNT; j++) w[j]! -= learningRate * grad[j]!;
    losses[epoch] = loss;
  }
  const weights: LineLogisticWeights = {
    format: 'distil-logistic-keep-model',
    version: 1,
    features: [...FEATURE_NAMES],
    weights: Array.from(w),
    training: {
      corpus: options.corpus ?? '(lines)',
      files: options.files ?? 0,
      uniqueLines: train.rows + test.rows,
      epochs,
      learningRate,
      l2,
      labelThreshold,
      testFraction,
      finalLoss: losses[epochs - 1]!,
      train: evaluateSplit(w, train),
      test: evaluateSplit(w, test),
    },
  };
  return { weights, losses };
}
