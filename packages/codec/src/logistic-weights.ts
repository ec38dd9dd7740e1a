import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseOrThrow, ValidationError } from '@distil/contract';
import { z } from 'zod';
import { BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES } from './block-features.js';
import { FEATURE_COUNT, FEATURE_NAMES } from './line-features.js';
import { TOKEN_FEATURE_COUNT, TOKEN_FEATURE_NAMES } from './token-need.js';

/**
 * The weights file shipped inside this package: the block model, trained on recorded agent sessions by
 * `distil train --corpus <trajectories>` (its provenance is inside the file).
 */
export const SHIPPED_LOGISTIC_WEIGHTS: string = fileURLToPath(
  new URL('../weights/logistic.json', import.meta.url),
);

/** Held-out figures of one split, as `distil train` prints them. */
export const SplitMetrics = z
  .object({
    lines: z.number().int().nonnegative(),
    accuracy: z.number().min(0).max(1),
    precision: z.number().min(0).max(1),
    recall: z.number().min(0).max(1),
    f1: z.number().min(0).max(1),
  })
  .strict();
export type SplitMetrics = z.infer<typeof SplitMetrics>;

/** How a weights file was produced; informative only, the model never reads it. */
export const TrainingRecord = z
  .object({
    corpus: z.string(),
    files: z.number().int().nonnegative(),
    uniqueLines: z.number().int().nonnegative(),
    epochs: z.number().int().positive(),
    learningRate: z.number().positive(),
    l2: z.number().nonnegative(),
    labelThreshold: z.number().min(0).max(1),
    testFraction: z.number().min(0).max(1),
    finalLoss: z.number().nonnegative(),
    train: SplitMetrics,
    test: SplitMetrics,
  })
  .strict();
export type TrainingRecord = z.infer<typeof TrainingRecord>;

/** The weights JSON of a line-only LogisticKeepModel: one weight per feature, in {@link FEATURE_NAMES} order. */
export const LineLogisticWeights = z
  .object({
    format: z.literal('distil-logistic-keep-model'),
    version: z.literal(1),
    features: z
      .array(z.string())
      .refine(
        (names) => names.length === FEATURE_COUNT && names.every((name, i) => name === FEATURE_NAMES[i]),
        `expected the features ${JSON.stringify(FEATURE_NAMES)} in this order`,
      ),
    weights: z.array(z.number().finite()).length(FEATURE_COUNT, `expected ${FEATURE_COUNT} weights`),
    training: TrainingRecord.optional(),
  })
  .strict();
export type LineLogisticWeights = z.infer<typeof LineLogisticWeights>;

/** Held-out figures of the block model, each fold scored by weights fitted on the others. */
export const HeldOutFigures = z
  .object({
    folds: z.number().int().positive(),
    split: z.string(),
    rocAuc: z.number().min(0).max(1),
    /** Share of tool-output characters removed, least likely needed first, while 99% of needed lines stay. */
    removedAt99: z.number().min(0).max(1),
    removedAt95: z.number().min(0).max(1),
    /** Share of characters in unneeded lines: what removing exactly those would save. */
    ceiling: z.number().min(0).max(1),
  })
  .strict();
export type HeldOutFigures = z.infer<typeof HeldOutFigures>;

/** Where block-model weights came from: informative only, the model never reads it. */
export const WeightsProvenance = z
  .object({
    corpus: z.string(),
    /** Sessions by source (`claude-code`, `codex`, …). */
    sessions: z.record(z.string(), z.number().int().nonnegative()),
    /** Session files read, relative to the corpus folder. */
    files: z.array(z.string()),
    licence: z.string(),
    label: z.string(),
    trainedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date'),
    outputs: z.number().int().nonnegative(),
    lines: z.number().int().nonnegative(),
    neededShare: z.number().min(0).max(1),
    l2: z.number().nonnegative(),
    /** How the L2 penalty and cost exponent were picked: by held-out removal at 99% recall, over these. */
    picked: z.string().optional(),
    heldOut: HeldOutFigures,
  })
  .strict();
export type WeightsProvenance = z.infer<typeof WeightsProvenance>;

/** The hashed token prior of a block model (token-prior.ts): counts by bucket, never token text. */
export const StoredTokenPrior = z
  .object({
    buckets: z.number().int().positive(),
    baseRate: z.number().min(0).max(1),
    smoothing: z.number().positive(),
    /** Space-separated `bucket:lines:needed` triples. */
    counts: z.string().regex(/^(\d+:\d+:\d+( \d+:\d+:\d+)*)?$/, 'expected bucket:lines:needed triples'),
  })
  .strict();
export type StoredTokenPrior = z.infer<typeof StoredTokenPrior>;

/**
 * The weights JSON of the block LogisticKeepModel: one weight per feature, in {@link BLOCK_FEATURE_NAMES}
 * order, over the line, its block, the trusted context and the token prior; `costExponent` ranks a line
 * by its need per token (score = σ(w·x − costExponent · ln(tokens / costReference))), since what removal
 * saves is tokens while recall counts lines; at the reference length (a long line) the score is the fitted
 * probability the pipeline's threshold expects, and shorter lines, cheap to keep, score higher.
 */
export const BlockLogisticWeights = z
  .object({
    format: z.literal('distil-logistic-keep-model'),
    version: z.literal(4),
    features: z
      .array(z.string())
      .refine(
        (names) =>
          names.length === BLOCK_FEATURE_COUNT && names.every((name, i) => name === BLOCK_FEATURE_NAMES[i]),
        `expected the features ${JSON.stringify(BLOCK_FEATURE_NAMES)} in this order`,
      ),
    weights: z
      .array(z.number().finite())
      .length(BLOCK_FEATURE_COUNT, `expected ${BLOCK_FEATURE_COUNT} weights`),
    costExponent: z.number().min(0).max(4),
    /** Tokens of the line the cost term leaves unchanged: the 90th percentile of the training lines. */
    costReference: z.number().positive(),
    tokenPrior: StoredTokenPrior,
    /** The token need model (token-need.ts): one weight per token feature, in TOKEN_FEATURE_NAMES order. */
    tokenModel: z
      .object({
        features: z
          .array(z.string())
          .refine(
            (names) =>
              names.length === TOKEN_FEATURE_COUNT &&
              names.every((name, i) => name === TOKEN_FEATURE_NAMES[i]),
            `expected the token features ${JSON.stringify(TOKEN_FEATURE_NAMES)} in this order`,
          ),
        weights: z
          .array(z.number().finite())
          .length(TOKEN_FEATURE_COUNT, `expected ${TOKEN_FEATURE_COUNT} token weights`),
      })
      .strict(),
    provenance: WeightsProvenance.optional(),
  })
  .strict();
export type BlockLogisticWeights = z.infer<typeof BlockLogisticWeights>;

/**
 * Either weights file: version 1 scores a line alone, version 4 a line in its block and context (version 3,
 * never released, had no token need model).
 */
export const LogisticWeights = z.discriminatedUnion('version', [LineLogisticWeights, BlockLogisticWeights]);
export type LogisticWeights = z.infer<typeof LogisticWeights>;

/**
 * Reads and validates a weights file. Throws an Error naming the path when it is missing or unreadable,
 * and a ValidationError naming every bad field when its content is wrong.
 */
export function readLogisticWeights(file: string = SHIPPED_LOGISTIC_WEIGHTS): LogisticWeights {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `logistic weights not found: ${file}`
        : `cannot read logistic weights ${file}: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`logistic weights ${file}`, [
      { path: '(file)', message: `not valid JSON: ${(error as Error).message}` },
    ]);
  }
  return parseOrThrow(LogisticWeights, json, `logistic weights ${file}`);
}

/** Serialises weights the way `distil train` writes them: stable key order, two-space indent, final newline. */
export function formatLogisticWeights(weights: LogisticWeights): string {
  return `${JSON.stringify(LogisticWeights.parse(weights), null, 2)}\n`;
}
