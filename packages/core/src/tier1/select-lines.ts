import type { TierConfig } from '@distil/contract';
import { GuardReason } from '../guard/guard-lines.js';
import { keepErrorContext } from './error-context.js';
import { releaseNoise } from './noise-dedup.js';
import { isVerdict } from './verdicts.js';

export interface LineSignals {
  readonly lines: readonly string[];
  /** Salience guard reasons per line (0 = none). */
  readonly guard: Uint8Array;
  /** KeepModel keep-probabilities per line. */
  readonly scores: Float32Array;
}

/**
 * Which lines of a block survive tier 1 (1 = keep), decided from the block's own text alone — no budget
 * is shared with any other block (spec/threat-model.txt). In order: head and tail context; decision
 * markers and verdicts; guarded lines; lines the KeepModel scores at or above the threshold; outcome-aware
 * noise dedup releases repeats among the scored and guarded lines; the context of the errors that remain.
 */
export function selectLines(signals: LineSignals, tiers: TierConfig): Uint8Array {
  const { lines, guard, scores } = signals;
  const n = lines.length;
  const keep = new Uint8Array(n);
  const exempt = new Uint8Array(n);
  const head = Math.min(n, tiers.headLines);
  const tailStart = Math.max(head, n - tiers.tailLines);
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const edge = i < head || i >= tailStart;
    const fixed =
      edge ||
      isVerdict(line) ||
      (guard[i]! & (GuardReason.anchor | GuardReason.diffChange | GuardReason.location)) !== 0;
    if (fixed) {
      keep[i] = 1;
      exempt[i] = 1;
    } else if (guard[i] !== 0 || scores[i]! >= tiers.keepThreshold) {
      keep[i] = 1;
    }
  }
  releaseNoise(lines, keep, exempt);
  const errors = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (keep[i] === 1 && (guard[i]! & GuardReason.surprise) !== 0) errors[i] = 1;
  keepErrorContext(lines, errors, keep);
  return keep;
}
