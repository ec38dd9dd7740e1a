import type { BertParams } from './bert-params.js';

/** Top-3 keep logits (log-odds) of each line's own tokens, the inputs of the line score. */
export type LineTopLogits = readonly Float32Array[];

/**
 * The top-3 keep log-odds of a line's content tokens ([CLS]/[SEP] excluded unless the line is blank),
 * from per-position keep-probabilities. The line's score is the mean of their sigmoids: the mean of the
 * top-3 token keep-probabilities, exactly as the codec's TransformerKeepModel scores a line. Log-odds are monotone in the probability, so the top three stay
 * the top three whatever bias is added later.
 */
export function topKeepLogits(probs: Float32Array, rowStart: number, length: number): Float32Array {
  const from = length > 2 ? rowStart + 1 : rowStart;
  const to = length > 2 ? rowStart + length - 1 : rowStart + length;
  const values: number[] = [];
  for (let i = from; i < to; i++) {
    const p = Math.min(Math.max(probs[i] as number, 1e-7), 1 - 1e-7);
    values.push(Math.log(p / (1 - p)));
  }
  values.sort((a, b) => b - a);
  return Float32Array.from(values.slice(0, 3));
}

function f1At(lines: LineTopLogits, labels: ArrayLike<number>, delta: number, threshold: number): number {
  let tp = 0;
  let wrong = 0;
  lines.forEach((top, i) => {
    let sum = 0;
    for (const z of top) sum += 1 / (1 + Math.exp(-(z + delta)));
    const keep = top.length > 0 && sum / top.length >= threshold;
    if (keep && labels[i] === 1) tp++;
    else if (keep || labels[i] === 1) wrong++;
  });
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + wrong);
}

/** The bias shift chosen on dev and the dev F1 it gives. */
export interface KeepBiasCalibration {
  /** Added to the keep logit (classifier bias of label 1). */
  readonly delta: number;
  readonly devF1Before: number;
  readonly devF1After: number;
  readonly threshold: number;
}

/**
 * Chooses the shift of the keep logit that maximises dev F1 when lines are kept at `threshold` (the
 * compression core's 0.6). Cross-entropy training on a corpus where few lines are kept leaves
 * probabilities low, so at a fixed threshold recall collapses; moving the classifier bias is the same as
 * moving the threshold, but the exported model then works with the threshold every consumer already
 * uses. A grid over [−6, 6] in steps of 0.05; ties go to the smallest shift. `search: false` only
 * measures the F1 at the threshold as it is.
 */
export function calibrateKeepBias(
  lines: LineTopLogits,
  labels: ArrayLike<number>,
  threshold: number,
  search = true,
): KeepBiasCalibration {
  const devF1Before = f1At(lines, labels, 0, threshold);
  let best = { delta: 0, f1: devF1Before };
  for (let step = -120; search && step <= 120; step++) {
    const delta = step * 0.05;
    const f1 = f1At(lines, labels, delta, threshold);
    if (f1 > best.f1 + 1e-12 || (Math.abs(f1 - best.f1) <= 1e-12 && Math.abs(delta) < Math.abs(best.delta))) {
      best = { delta, f1 };
    }
  }
  return { delta: best.delta, devF1Before, devF1After: best.f1, threshold };
}

/** Adds `delta` to the keep label's classifier bias (in place). */
export function shiftKeepBias(params: BertParams, delta: number): void {
  const bias = params.viewOf('classifier.bias');
  bias[1] = (bias[1] as number) + delta;
}
