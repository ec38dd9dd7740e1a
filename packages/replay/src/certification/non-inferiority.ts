import { normalCdf, normalQuantile } from './normal-distribution.js';
import { type Interval, tangoInterval, tangoScore } from './tango-interval.js';

/** Matched runs of the same tasks, with and without compression, as a paired 2×2 table. */
export interface PairedOutcomes {
  /** Both passed. */
  readonly bothPass: number;
  /** Compressed passed where full failed. */
  readonly compressedOnly: number;
  /** Full passed where compressed failed: the regressions. */
  readonly fullOnly: number;
  /** Both failed. */
  readonly bothFail: number;
}

/** The verdict of a non-inferiority test. */
export interface NonInferiority {
  readonly test: 'tango-score';
  readonly pairs: number;
  readonly passRate: { readonly full: number; readonly compressed: number };
  /** Δ = compressed pass rate − full pass rate, with the two-sided (1 − 2α) Tango interval. */
  readonly difference: Interval;
  readonly margin: number;
  readonly alpha: number;
  /** Tango's Z at Δ₀ = −margin, and its one-sided p-value. */
  readonly z: number;
  readonly pValue: number;
  /** True when H₀ (compression loses more than `margin` of pass rate) is rejected at level α. */
  readonly nonInferior: boolean;
}

/**
 * One-sided non-inferiority test of compressed against full runs on paired pass/fail outcomes:
 * H₀: Δ ≤ −margin against H₁: Δ > −margin, with Δ the difference in pass rates (compressed − full).
 *
 * Why Tango's score test. The runs are paired (the same task with and without compression), so the two
 * pass rates are correlated and only the discordant pairs carry information about Δ: unpaired tests
 * (two-sample z, Fisher) have the wrong size. The paired Wald interval collapses to zero width when there
 * are no discordant pairs, declaring non-inferiority from a handful of runs; the exact McNemar test
 * conditions on the discordant pairs and tests Δ = 0, not a margin on the difference scale. Tango's score
 * test targets Δ₀ = −margin directly, uses the constrained maximum-likelihood variance (finite with zero
 * discordant pairs) and keeps near-nominal size in small samples (Tango 1998; Fagerland, Lydersen & Laake,
 * Statistical Analysis of Contingency Tables, 2017, ch. 8). Rejecting at one-sided α is the same as the
 * lower bound of the two-sided (1 − 2α) interval lying above −margin; that interval is reported.
 */
export function nonInferiorityTest(outcomes: PairedOutcomes, margin: number, alpha = 0.05): NonInferiority {
  if (!(margin > 0 && margin < 1)) throw new RangeError(`margin must be in (0, 1), got ${margin}`);
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`alpha must be in (0, 0.5), got ${alpha}`);
  const n = outcomes.bothPass + outcomes.compressedOnly + outcomes.fullOnly + outcomes.bothFail;
  if (n === 0) throw new RangeError('no matched runs');
  const counts = { b: outcomes.compressedOnly, c: outcomes.fullOnly, n };
  const z = tangoScore(counts, -margin);
  const difference = tangoInterval(counts, 1 - 2 * alpha);
  return {
    test: 'tango-score',
    pairs: n,
    passRate: {
      full: (outcomes.bothPass + outcomes.fullOnly) / n,
      compressed: (outcomes.bothPass + outcomes.compressedOnly) / n,
    },
    difference,
    margin,
    alpha,
    z,
    pValue: 1 - normalCdf(z),
    nonInferior: z > normalQuantile(1 - alpha),
  };
}
