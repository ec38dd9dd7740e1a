import { createHash } from 'node:crypto';
import { type ContentKind, DECISION_MARKER, type KeepModel } from '@distil/contract';
import { FEATURE_COUNT, writeFeatures } from './line-features.js';
import { type LogisticWeights, readLogisticWeights, SHIPPED_LOGISTIC_WEIGHTS } from './logistic-weights.js';

/** σ(z), written to stay finite for large |z|. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * Logistic regression over the nine line features (spec: "Logistic keep-model — built-in, zero-dep"). Pure
 * TypeScript; weights come from a JSON file written by `distil train`, by default the one shipped in this
 * package. A line containing `DECISION:` scores 1 whatever the weights say.
 */
export class LogisticKeepModel implements KeepModel {
  /** `logistic:<first 12 hex of sha-256 of the weights>`, so a retrained model never shares a cache key. */
  readonly id: string;
  private readonly w: Float64Array;
  private readonly features = new Float64Array(FEATURE_COUNT);

  constructor(readonly weights: LogisticWeights) {
    this.w = Float64Array.from(weights.weights);
    const digest = createHash('sha256').update(JSON.stringify(weights.weights)).digest('hex');
    this.id = `logistic:${digest.slice(0, 12)}`;
  }

  /** Loads weights from `file` (default: the weights shipped in @distil/codec); errors name the path or field. */
  static load(file: string = SHIPPED_LOGISTIC_WEIGHTS): LogisticKeepModel {
    return new LogisticKeepModel(readLogisticWeights(file));
  }

  /** Keep-probability of one line, synchronously. */
  scoreSync(line: string): number {
    if (line.includes(DECISION_MARKER)) return 1;
    const x = this.features;
    const w = this.w;
    writeFeatures(line, x, 0);
    let z = 0;
    for (let j = 0; j < FEATURE_COUNT; j++) z += w[j]! * x[j]!;
    return sigmoid(z);
  }

  /** Keep-probability per line (the KeepModel contract). */
  scoreLines(lines: readonly string[], _kind: ContentKind): Promise<Float32Array> {
    const scores = new Float32Array(lines.length);
    for (let i = 0; i < lines.length; i++) scores[i] = this.scoreSync(lines[i]!);
    return Promise.resolve(scores);
  }

  /** Keep-probability of one line. */
  score(line: string, _kind: ContentKind): Promise<number> {
    return Promise.resolve(this.scoreSync(line));
  }
}
