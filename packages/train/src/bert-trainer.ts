import { AdamW, linearSchedule } from './adamw.js';
import {
  type BatchShape,
  DEFAULT_BATCH_SHAPE,
  type EncodedLine,
  lengthGroupedBatches,
  padBatch,
  tokenCount,
} from './batching.js';
import type { TokenBatch } from './bert-forward.js';
import type { BertParams } from './bert-params.js';
import type { GradientEngine } from './gradient-engine.js';
import {
  calibrateKeepBias,
  type KeepBiasCalibration,
  shiftKeepBias,
  topKeepLogits,
} from './keep-bias-calibration.js';

/** What one epoch did. */
export interface EpochSummary {
  readonly epoch: number;
  readonly epochs: number;
  /** Mean weighted token loss over the epoch's training steps. */
  readonly trainLoss: number;
  /** Mean weighted token loss on the dev split (NaN without one). */
  readonly devLoss: number;
  /** Line-level dev F1 at the calibrated keep bias (at 0.5 without calibration; NaN without a dev split). */
  readonly devF1: number;
  readonly seconds: number;
  /** Unpadded training tokens per second of wall time. */
  readonly tokensPerSecond: number;
  /** Whether this epoch's dev F1 was the best so far (its parameters are the ones kept). */
  readonly best: boolean;
}

/** Hooks for progress display; every one optional. */
export interface TrainingObserver {
  epochStart?(epoch: number, epochs: number, steps: number): void;
  step?(done: number, loss: number, tokensPerSecond: number): void;
  epochEnd?(summary: EpochSummary): void;
}

export interface BertTrainingOptions {
  readonly engine: GradientEngine;
  readonly epochs: number;
  readonly learningRate: number;
  /** Loss weight of keep tokens (default 1); >1 counters a corpus where few lines are kept. */
  readonly keepWeight?: number;
  /** Stop after this many epochs without a better dev F1 (default 2). */
  readonly patience?: number;
  readonly batchShape?: BatchShape;
  /** Seed of batch order (epoch e uses seed + e). */
  readonly seed?: number;
  /** Stop an epoch after this many steps (benchmarks; default: the whole epoch). */
  readonly maxStepsPerEpoch?: number;
  /** After training, shift the keep bias so this keep threshold is the dev F1-best one (default: no shift). */
  readonly calibrateThreshold?: number;
  readonly observer?: TrainingObserver;
}

/** The trained (best-on-dev) parameters and the per-epoch history. */
export interface BertTrainingResult {
  readonly params: BertParams;
  readonly history: readonly EpochSummary[];
  readonly stoppedEarly: boolean;
  /** The keep-bias shift applied after training, when asked for and a dev split exists. */
  readonly calibration?: KeepBiasCalibration;
}

/** What the dev split says about the current parameters. */
interface DevEvaluation {
  /** Mean weighted token loss. */
  readonly loss: number;
  /** Line F1 at the best keep-bias shift for the threshold (at 0.5 unshifted without one). */
  readonly f1: number;
  /** The shift that gives it. */
  readonly calibration?: KeepBiasCalibration;
}

async function evaluateDev(
  engine: GradientEngine,
  params: BertParams,
  dev: readonly EncodedLine[],
  keepWeight: number,
  shape: BatchShape,
  threshold: number | undefined,
): Promise<DevEvaluation> {
  const indexed = dev.map((line, index) => ({ ...line, index }));
  const groups = lengthGroupedBatches(indexed, shape);
  const probs = await engine.keepProbabilities(
    params,
    groups.map((g) => padBatch(g)),
  );
  const tops: Float32Array[] = new Array(dev.length);
  let loss = 0;
  let weight = 0;
  groups.forEach((group, b) => {
    const p = probs[b] as Float32Array;
    const seqLen = p.length / group.length;
    group.forEach((line, r) => {
      const w = line.label ? keepWeight : 1;
      for (let t = 0; t < line.ids.length; t++) {
        const q = Math.min(Math.max(p[r * seqLen + t] as number, 1e-7), 1 - 1e-7);
        loss -= w * Math.log(line.label ? q : 1 - q);
        weight += w;
      }
      tops[line.index] = topKeepLogits(p, r * seqLen, line.ids.length);
    });
  });
  const labels = dev.map((l) => l.label);
  const meanLoss = weight > 0 ? loss / weight : Number.NaN;
  if (threshold === undefined) {
    const plain = calibrateKeepBias(tops, labels, 0.5, false);
    return { loss: meanLoss, f1: plain.devF1Before };
  }
  const calibration = calibrateKeepBias(tops, labels, threshold);
  return { loss: meanLoss, f1: calibration.devF1After, calibration };
}

/**
 * Fine-tunes `params` in place for token classification: length-grouped batches, `engine.parallelism`
 * batches per step (their gradients summed, then divided by the step's total loss weight), AdamW with
 * warm-up and linear decay, and early stopping on dev F1 (at the calibrated operating point when
 * `calibrateThreshold` is set: dev loss often rises from over-confidence while keep lines are still
 * being found better). Returns the best parameters seen, their keep bias
 * shifted by that epoch's calibration.
 */
export async function trainBert(
  params: BertParams,
  train: readonly EncodedLine[],
  dev: readonly EncodedLine[],
  options: BertTrainingOptions,
): Promise<BertTrainingResult> {
  const { engine, epochs, observer } = options;
  const keepWeight = options.keepWeight ?? 1;
  const patience = options.patience ?? 2;
  const shape = options.batchShape ?? DEFAULT_BATCH_SHAPE;
  const seed = options.seed ?? 1;
  if (train.length === 0) throw new Error('no training lines');
  const stepsPerEpoch = (batches: number) => {
    const steps = Math.ceil(batches / engine.parallelism);
    return options.maxStepsPerEpoch ? Math.min(steps, options.maxStepsPerEpoch) : steps;
  };
  const firstEpochBatches = lengthGroupedBatches(train, shape, seed).length;
  const schedule = linearSchedule(options.learningRate, stepsPerEpoch(firstEpochBatches) * epochs);
  const optimizer = new AdamW(params, { learningRate: options.learningRate });
  const history: EpochSummary[] = [];
  let best: { params: BertParams; calibration?: KeepBiasCalibration } | undefined;
  let bestF1 = Number.NEGATIVE_INFINITY;
  let sinceBest = 0;
  let stoppedEarly = false;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const batches = lengthGroupedBatches(train, shape, seed + epoch);
    const steps = stepsPerEpoch(batches.length);
    observer?.epochStart?.(epoch, epochs, steps);
    const started = performance.now();
    let lossSum = 0;
    let weightSum = 0;
    let tokens = 0;
    for (let s = 0; s < steps; s++) {
      const group = batches.slice(s * engine.parallelism, (s + 1) * engine.parallelism);
      const padded: TokenBatch[] = group.map((g) => padBatch(g));
      const r = await engine.gradients(params, padded, keepWeight);
      if (r.weightSum > 0) {
        for (let i = 0; i < r.grad.length; i++) r.grad[i] = (r.grad[i] as number) / r.weightSum;
        optimizer.apply(params, r.grad, schedule(optimizer.steps));
      }
      lossSum += r.lossSum;
      weightSum += r.weightSum;
      tokens += group.reduce((n, g) => n + tokenCount(g), 0);
      const elapsed = (performance.now() - started) / 1000;
      observer?.step?.(s + 1, weightSum > 0 ? lossSum / weightSum : 0, tokens / Math.max(elapsed, 1e-9));
    }
    const seconds = (performance.now() - started) / 1000;
    const devResult =
      dev.length > 0
        ? await evaluateDev(engine, params, dev, keepWeight, shape, options.calibrateThreshold)
        : { loss: Number.NaN, f1: Number.NaN };
    // Without a dev split every epoch counts as the best: the last one is kept.
    const improved = dev.length === 0 || devResult.f1 > bestF1;
    if (improved) {
      bestF1 = devResult.f1;
      best = {
        params: params.clone(),
        ...(devResult.calibration ? { calibration: devResult.calibration } : {}),
      };
      sinceBest = 0;
    } else sinceBest++;
    const summary: EpochSummary = {
      epoch,
      epochs,
      trainLoss: weightSum > 0 ? lossSum / weightSum : Number.NaN,
      devLoss: devResult.loss,
      devF1: devResult.f1,
      seconds,
      tokensPerSecond: tokens / Math.max(seconds, 1e-9),
      best: improved,
    };
    history.push(summary);
    observer?.epochEnd?.(summary);
    if (sinceBest >= patience && epoch < epochs) {
      stoppedEarly = true;
      break;
    }
  }
  const chosen = best ?? { params };
  if (chosen.calibration) shiftKeepBias(chosen.params, chosen.calibration.delta);
  return {
    params: chosen.params,
    history,
    stoppedEarly,
    ...(chosen.calibration ? { calibration: chosen.calibration } : {}),
  };
}
