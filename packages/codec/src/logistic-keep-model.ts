import { createHash } from 'node:crypto';
import { type ContentKind, DECISION_MARKER, type KeepContext, type KeepModel } from '@distil/contract';
import { BLOCK_FEATURE_COUNT, writeBlockFeatures } from './block-features.js';
import { FEATURE_COUNT, writeFeatures } from './line-features.js';
import { type LogisticWeights, readLogisticWeights, SHIPPED_LOGISTIC_WEIGHTS } from './logistic-weights.js';
import { blockTokens, lineNeedOdds } from './token-need.js';
import { readPrior, type TokenPrior } from './token-prior.js';

/** σ(z), written to stay finite for large |z|. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * A line's cost in tokens, approximated as four characters a token (at least one): the cost exponent
 * only needs its order of magnitude, and the tokenizers live outside this package.
 */
export const approximateTokens = (line: string): number => Math.max(1, line.length / 4);

/**
 * Logistic regression (spec: "Logistic keep-model — built-in, zero-dep"). Pure TypeScript; weights come
 * from a JSON file written by `distil train`, by default the one shipped in this package. Version 1
 * weights score each line by its nine line features alone; version 4 weights (the shipped ones) also read
 * the line's block, the trusted context, a hashed token prior and the token need model (block-features.ts,
 * token-need.ts), so such a model
 * scores whole blocks (`wholeBlock`), and rank a line by need per token (`costExponent`). A line
 * containing `DECISION:` scores 1 whatever the weights say.
 */
export class LogisticKeepModel implements KeepModel {
  /** `logistic:<first 12 hex of sha-256 of the weights>`, so a retrained model never shares a cache key. */
  readonly id: string;
  readonly wholeBlock: boolean;
  private readonly w: Float64Array;
  private readonly features = new Float64Array(FEATURE_COUNT);
  private readonly prior: TokenPrior | undefined;
  private readonly tokenWeights: Float64Array | undefined;
  private readonly costExponent: number;
  private readonly costReference: number;

  constructor(readonly weights: LogisticWeights) {
    this.w = Float64Array.from(weights.weights);
    const block = weights.version === 4 ? weights : undefined;
    this.wholeBlock = block !== undefined;
    this.prior = block ? readPrior(block.tokenPrior) : undefined;
    this.tokenWeights = block ? Float64Array.from(block.tokenModel.weights) : undefined;
    this.costExponent = block?.costExponent ?? 0;
    this.costReference = block?.costReference ?? 1;
    const identity = block
      ? JSON.stringify([
          block.weights,
          block.costExponent,
          block.costReference,
          block.tokenPrior,
          block.tokenModel.weights,
        ])
      : JSON.stringify(weights.weights);
    const digest = createHash('sha256').update(identity).digest('hex');
    this.id = `logistic:${digest.slice(0, 12)}`;
  }

  /** Loads weights from `file` (default: the weights shipped in @distil/codec); errors name the path or field. */
  static load(file: string = SHIPPED_LOGISTIC_WEIGHTS): LogisticKeepModel {
    return new LogisticKeepModel(readLogisticWeights(file));
  }

  /** Keep-probability of one line, synchronously (a block of that line alone, without context). */
  scoreSync(line: string): number {
    if (line.includes(DECISION_MARKER)) return 1;
    if (this.wholeBlock) return this.scoreBlock([line], undefined)[0]!;
    const x = this.features;
    const w = this.w;
    writeFeatures(line, x, 0);
    let z = 0;
    for (let j = 0; j < FEATURE_COUNT; j++) z += w[j]! * x[j]!;
    return sigmoid(z);
  }

  /** Keep-probability per line (the KeepModel contract). */
  scoreLines(lines: readonly string[], _kind: ContentKind, context?: KeepContext): Promise<Float32Array> {
    if (this.wholeBlock) return Promise.resolve(this.scoreBlock(lines, context));
    const scores = new Float32Array(lines.length);
    for (let i = 0; i < lines.length; i++) scores[i] = this.scoreSync(lines[i]!);
    return Promise.resolve(scores);
  }

  /** Keep-probability of one line. */
  score(line: string, _kind: ContentKind): Promise<number> {
    return Promise.resolve(this.scoreSync(line));
  }

  /** Keep-probability of every line of one block, synchronously (block weights; line weights score alone). */
  scoreBlockSync(lines: readonly string[], context?: KeepContext): Float32Array {
    if (!this.wholeBlock) return Float32Array.from(lines, (line) => this.scoreSync(line));
    return this.scoreBlock(lines, context);
  }

  private scoreBlock(lines: readonly string[], context: KeepContext | undefined): Float32Array {
    const x = new Float64Array(lines.length * BLOCK_FEATURE_COUNT);
    const need = lineNeedOdds(blockTokens(lines, context, this.prior), this.tokenWeights!);
    writeBlockFeatures(lines, context, x, 0, this.prior, need);
    const w = this.w;
    const scores = new Float32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.includes(DECISION_MARKER)) {
        scores[i] = 1;
        continue;
      }
      let z = 0;
      for (let j = 0, o = i * BLOCK_FEATURE_COUNT; j < BLOCK_FEATURE_COUNT; j++) z += w[j]! * x[o + j]!;
      scores[i] = sigmoid(
        z - this.costExponent * Math.log(approximateTokens(lines[i]!) / this.costReference),
      );
    }
    return scores;
  }
}
