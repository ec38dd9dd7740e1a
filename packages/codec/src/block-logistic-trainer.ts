import { createHash } from 'node:crypto';
import type { KeepContext } from '@distil/contract';
import { BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES, writeBlockFeatures } from './block-features.js';
import { approximateTokens, LogisticKeepModel } from './logistic-keep-model.js';
import type { BlockLogisticWeights, HeldOutFigures } from './logistic-weights.js';
import { fitLogisticNewton } from './newton-logistic.js';
import { removedAtRecall, rocAuc } from './removal-curve.js';
import {
  blockTokens,
  fitTokenNeed,
  lineNeedOdds,
  TOKEN_FEATURE_NAMES,
  type TokenTrainingBlock,
  writtenFromLabels,
} from './token-need.js';
import { PRIOR_BUCKETS, TokenPriorCounts } from './token-prior.js';

/** One tool output with its lines labelled needed (1) or not, and the context known before it was read. */
export interface LabelledBlock {
  readonly lines: readonly string[];
  readonly needed: ArrayLike<number>;
  readonly context?: KeepContext;
  /** What the held-out split keeps together (a session with its subagents): never split across folds. */
  readonly group: string;
  /**
   * The reference tokens the agent wrote after reading the block, when known (recorded sessions): what the
   * token need model learns from. Without it, the tokens are inferred from the line labels.
   */
  readonly writtenAfter?: ReadonlySet<string>;
}

/** Knobs of {@link trainBlockLogistic}. */
export interface BlockTrainingOptions {
  /** Folds of the held-out estimate, split by SHA-256 of each block's group (default 5). */
  readonly folds?: number;
  /** L2 penalty on every weight but the bias (default {@link DEFAULT_L2}); several: the best held out. */
  readonly l2?: number | readonly number[];
  /** Cost exponent (LogisticKeepModel; default {@link DEFAULT_COST_EXPONENT}); several: the best held out. */
  readonly costExponent?: number | readonly number[];
  /** Buckets of the token prior (default {@link PRIOR_BUCKETS}). */
  readonly buckets?: number;
}

/**
 * The defaults, picked by `pnpm bench:keep`'s five folds over the corpus's recorded sessions among L2
 * 1e-4, 1e-3, 3e-3, 1e-2 and cost exponents 0, 0.5, 0.75, 1, 1.5 (removal at 99% recall held out). Picking
 * again inside each training run (inner folds over four fifths of some twenty sessions) chose worse on
 * the outer folds than these fixed values: too few sessions to pick from reliably.
 */
export const DEFAULT_L2 = 1e-3;
export const DEFAULT_COST_EXPONENT = 0.75;

/** What a weights file needs but its provenance: the fitted model. */
export type FittedBlockWeights = Omit<BlockLogisticWeights, 'provenance'>;

/** The fitted weights (all blocks) and the held-out figures (each fold scored by the other folds' fit). */
export interface BlockTrainingResult {
  readonly weights: FittedBlockWeights;
  readonly heldOut: HeldOutFigures;
  readonly lines: number;
  readonly neededShare: number;
  readonly l2: number;
  /** Which L2 penalties and cost exponents were tried, and the held-out removal at 99% of each. */
  readonly picked: string;
}

/** The fold of a group: the first byte of its SHA-256, so the split is the same on every machine. */
export const foldOf = (group: string, folds: number): number =>
  createHash('sha256').update(group).digest()[0]! % folds;

/**
 * Fits the block model on `blocks`: the token prior counted over them; the token need model on every
 * block's tokens, each read with the prior of the other groups (so a token only its own session has is
 * unseen, as it is in a new session); then every line's block features, the token need among them, and
 * Newton's method with L2. Deterministic.
 */
export function fitBlockLogistic(
  blocks: readonly LabelledBlock[],
  options: { readonly l2: number; readonly costExponent: number; readonly buckets?: number },
): FittedBlockWeights {
  const counts = new TokenPriorCounts(options.buckets ?? PRIOR_BUCKETS);
  for (const block of blocks)
    block.lines.forEach((line, i) => {
      counts.add(line, block.needed[i] === 1, block.group);
    });
  const rows = blocks.reduce((s, b) => s + b.lines.length, 0);
  if (rows === 0) throw new Error('no labelled lines to train on');
  const dims = BLOCK_FEATURE_COUNT;
  const x = new Float64Array(rows * dims);
  const y = new Uint8Array(rows);
  const priors = new Map<string, ReturnType<TokenPriorCounts['prior']>>();
  const tokenBlocks: TokenTrainingBlock[] = blocks.map((block) => {
    const prior = priors.get(block.group) ?? counts.prior(block.group);
    priors.set(block.group, prior);
    const written = block.writtenAfter;
    return {
      tokens: blockTokens(block.lines, block.context, prior),
      written: written ? (t) => written.has(t) : writtenFromLabels(block.lines, block.needed),
    };
  });
  const tokenWeights = fitTokenNeed(tokenBlocks);
  let r = 0;
  blocks.forEach((block, b) => {
    const need = lineNeedOdds(tokenBlocks[b]!.tokens, tokenWeights);
    writeBlockFeatures(block.lines, block.context, x, r, priors.get(block.group), need);
    for (let i = 0; i < block.lines.length; i++, r++) y[r] = block.needed[i] ? 1 : 0;
  });
  const { weights } = fitLogisticNewton(x, y, dims, { l2: options.l2 });
  // the cost term leaves a long line's score as fitted and raises shorter ones: the pipeline's threshold
  // then folds the long lines it folded before, and keeps more of the short lines that cost little
  const lengths = Float64Array.from(blocks.flatMap((b) => b.lines.map(approximateTokens))).sort();
  const costReference = lengths[Math.floor(0.9 * (lengths.length - 1))]!;
  return {
    format: 'distil-logistic-keep-model',
    version: 4,
    features: [...BLOCK_FEATURE_NAMES],
    weights: Array.from(weights),
    costExponent: options.costExponent,
    costReference,
    tokenPrior: counts.serialise(),
    tokenModel: { features: [...TOKEN_FEATURE_NAMES], weights: Array.from(tokenWeights) },
  };
}

/**
 * Trains the block logistic keep model on labelled tool outputs (fitBlockLogistic). The held-out figures
 * come from `folds`-fold cross-validation split by group, each fold scored through LogisticKeepModel by
 * weights fitted on the other folds, so no session is scored by weights (or a prior) that saw it; L2 and
 * the cost exponent, when several are given, are the pair that removes most at 99% recall there. The weights
 * returned are then fitted on every block. Removal is measured in characters (the tokenizer lives
 * elsewhere).
 */
export function trainBlockLogistic(
  blocks: readonly LabelledBlock[],
  options: BlockTrainingOptions = {},
): BlockTrainingResult {
  const folds = options.folds ?? 5;
  const rows = blocks.reduce((s, b) => s + b.lines.length, 0);
  if (rows === 0) throw new Error('no labelled lines to train on');
  const y = new Uint8Array(rows);
  const cost = new Float64Array(rows);
  const tokens = new Float64Array(rows);
  let r = 0;
  for (const block of blocks)
    for (let i = 0; i < block.lines.length; i++, r++) {
      y[r] = block.needed[i] ? 1 : 0;
      cost[r] = Math.max(1, block.lines[i]!.length);
      tokens[r] = approximateTokens(block.lines[i]!);
    }
  const l2s = typeof options.l2 === 'number' ? [options.l2] : (options.l2 ?? [DEFAULT_L2]);
  const exponents =
    typeof options.costExponent === 'number'
      ? [options.costExponent]
      : (options.costExponent ?? [DEFAULT_COST_EXPONENT]);
  let best: { l2: number; costExponent: number; scores: Float64Array; at99: number } | undefined;
  const tried: string[] = [];
  for (const l2 of l2s) {
    // log-odds held out, before the cost term: each exponent is then a re-ranking, not a refit
    const z = heldOutLogOdds(blocks, folds, l2, options.buckets);
    for (const costExponent of exponents) {
      const scores = z.map((v, i) => v - costExponent * Math.log(tokens[i]!));
      const at99 = removedAtRecall(scores, y, cost, 0.99);
      tried.push(`L2 ${l2}, cost exponent ${costExponent}: ${(at99 * 100).toFixed(1)}%`);
      if (best === undefined || at99 > best.at99) best = { l2, costExponent, scores, at99 };
    }
  }
  const { l2, costExponent, scores } = best!;
  let needed = 0;
  let total = 0;
  let unneeded = 0;
  for (let i = 0; i < rows; i++) {
    needed += y[i]!;
    total += cost[i]!;
    if (y[i] === 0) unneeded += cost[i]!;
  }
  return {
    weights: fitBlockLogistic(blocks, {
      l2,
      costExponent,
      ...(options.buckets ? { buckets: options.buckets } : {}),
    }),
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
    picked:
      tried.length === 1
        ? `fixed (picked by pnpm bench:keep's folds): ${tried[0]}`
        : `best held-out removal at 99% recall (characters) of ${tried.join('; ')}`,
  };
}

/** Each block's lines scored (log-odds, cost term left out) by weights fitted on the other folds. */
function heldOutLogOdds(
  blocks: readonly LabelledBlock[],
  folds: number,
  l2: number,
  buckets: number | undefined,
): Float64Array {
  const fold = blocks.map((b) => foldOf(b.group, folds));
  const offsets: number[] = [];
  let rows = 0;
  for (const b of blocks) {
    offsets.push(rows);
    rows += b.lines.length;
  }
  const out = new Float64Array(rows);
  for (let k = 0; k < folds; k++) {
    const train = blocks.filter((_, i) => fold[i] !== k);
    if (train.length === blocks.length || train.length === 0) continue;
    const model = new LogisticKeepModel(
      fitBlockLogistic(train, { l2, costExponent: 0, ...(buckets ? { buckets } : {}) }),
    );
    blocks.forEach((b, i) => {
      if (fold[i] !== k) return;
      const p = model.scoreBlockSync(b.lines, b.context);
      for (let j = 0; j < p.length; j++) {
        const q = Math.min(1 - 1e-7, Math.max(1e-7, p[j]!));
        out[offsets[i]! + j] = Math.log(q / (1 - q));
      }
    });
  }
  return out;
}
