import { createHash } from 'node:crypto';
import type { KeepContext } from '@distil/contract';
import { BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES, writeBlockFeatures } from './block-features.js';
import type { BlockLogisticWeights, HeldOutFigures } from './logistic-weights.js';
import { fitLogisticNewton } from './newton-logistic.js';
import { removedAtRecall, rocAuc } from './removal-curve.js';

/** One tool output with its lines labelled needed (1) or not, and the context known before it was read. */
export interface LabelledBlock {
  readonly lines: readonly string[];
  readonly needed: ArrayLike<number>;
  readonly context?: KeepContext;
  /** What the held-out split keeps together (a session with its subagents): never split across folds. */
  readonly group: string;
}

/** Knobs of {@link trainBlockLogistic}. */
export interface BlockTrainingOptions {
  /** Folds of the held-out estimate, split by SHA-256 of each block's group (default 5). */
  readonly folds?: number;
  /** L2 penalty on every weight but the bias (default 1e-3). */
  readonly l2?: number;
}

/** The fitted weights (all blocks) and the held-out figures (each fold scored by the other folds' fit). */
export interface BlockTrainingResult {
  readonly weights: Pick<BlockLogisticWeights, 'format' | 'version' | 'features' | 'weights'>;
  readonly heldOut: HeldOutFigures;
  readonly lines: number;
  readonly neededShare: number;
  readonly l2: number;
}

/** The fold of a group: the first byte of its SHA-256, so the split is the same on every machine. */
export const foldOf = (group: string, folds: number): number =>
  createHash('sha256').update(group).digest()[0]! % folds;

/**
 * Trains the block logistic keep model on labelled tool outputs: every line's block features
 * (block-features.ts), fitted by Newton's method with L2. The held-out figures come from `folds`-fold
 * cross-validation split by group, so no session is scored by weights that saw it; the weights returned
 * are then fitted on every block. Removal is measured in characters (the tokenizer lives elsewhere).
 */
export function trainBlockLogistic(
  blocks: readonly LabelledBlock[],
  options: BlockTrainingOptions = {},
): BlockTrainingResult {
  const folds = options.folds ?? 5;
  const l2 = options.l2 ?? 1e-3;
  const rows = blocks.reduce((s, b) => s + b.lines.length, 0);
  if (rows === 0) throw new Error('no labelled lines to train on');
  const dims = BLOCK_FEATURE_COUNT;
  const x = new Float64Array(rows * dims);
  const y = new Uint8Array(rows);
  const fold = new Uint8Array(rows);
  const cost = new Float64Array(rows);
  let r = 0;
  for (const block of blocks) {
    writeBlockFeatures(block.lines, block.context, x, r);
    const k = foldOf(block.group, folds);
    for (let i = 0; i < block.lines.length; i++, r++) {
      y[r] = block.needed[i] ? 1 : 0;
      fold[r] = k;
      cost[r] = Math.max(1, block.lines[i]!.length);
    }
  }
  const scores = new Float64Array(rows);
  for (let k = 0; k < folds; k++) {
    const train: number[] = [];
    for (let i = 0; i < rows; i++) if (fold[i] !== k) train.push(i);
    if (train.length === rows || train.length === 0) continue;
    const w = fit(x, y, train, dims, l2);
    for (let i = 0; i < rows; i++) if (fold[i] === k) scores[i] = score(w, x, i, dims);
  }
  let needed = 0;
  let total = 0;
  let unneeded = 0;
  for (let i = 0; i < rows; i++) {
    needed += y[i]!;
    total += cost[i]!;
    if (y[i] === 0) unneeded += cost[i]!;
  }
  const all = fit(
    x,
    y,
    Array.from({ length: rows }, (_, i) => i),
    dims,
    l2,
  );
  return {
    weights: {
      format: 'distil-logistic-keep-model',
      version: 2,
      features: [...BLOCK_FEATURE_NAMES],
      weights: Array.from(all),
    },
    heldOut: {
      folds,
      split: 'by session (SHA-256 of the session id)',
      rocAuc: rocAuc(scores, y),
      removedAt99: removedAtRecall(scores, y, cost, 0.99),
      removedAt95: removedAtRecall(scores, y, cost, 0.95),
      ceiling: unneeded / total,
    },
    lines: rows,
    neededShare: needed / rows,
    l2,
  };
}

function fit(
  x: Float64Array,
  y: Uint8Array,
  picked: readonly number[],
  dims: number,
  l2: number,
): Float64Array {
  const tx = new Float64Array(picked.length * dims);
  const ty = new Uint8Array(picked.length);
  picked.forEach((r, i) => {
    tx.set(x.subarray(r * dims, (r + 1) * dims), i * dims);
    ty[i] = y[r]!;
  });
  return fitLogisticNewton(tx, ty, dims, { l2 }).weights;
}

function score(w: Float64Array, x: Float64Array, r: number, dims: number): number {
  let z = 0;
  for (let d = 0; d < dims; d++) z += w[d]! * x[r * dims + d]!;
  return 1 / (1 + Math.exp(-z));
}
