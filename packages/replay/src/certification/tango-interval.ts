import { normalQuantile } from './normal-distribution.js';

/**
 * Paired binary outcomes: the two discordant cells and the number of pairs. With X₁ the first outcome
 * and X₂ the second, `b` counts pairs with X₁ = 1, X₂ = 0 and `c` pairs with X₁ = 0, X₂ = 1; the
 * difference estimated is Δ = P(X₁ = 1) − P(X₂ = 1) = (b − c) / n.
 */
export interface PairedCounts {
  readonly b: number;
  readonly c: number;
  readonly n: number;
}

/**
 * Tango's score statistic for H₀: Δ = Δ₀ on paired binary data (T. Tango, "Equivalence test and
 * confidence interval for the difference in proportions for the paired-sample design", Stat Med 17:891,
 * 1998): Z = (b − c − nΔ₀) / √(n (2q̂ + Δ₀(1 − Δ₀))), where q̂ is the maximum-likelihood estimate of
 * P(X₁ = 0, X₂ = 1) under the constraint Δ = Δ₀, the positive root of 2n q² + B q + C = 0 with
 * B = −b − c + (2n − b + c)Δ₀ and C = −c Δ₀(1 − Δ₀). Decreasing in Δ₀. A zero variance with a zero
 * numerator (no discordant pairs, Δ₀ = 0) counts as no evidence either way: Z = 0.
 */
export function tangoScore({ b, c, n }: PairedCounts, delta0: number): number {
  const A = 2 * n;
  const B = -b - c + (2 * n - b + c) * delta0;
  const C = -c * delta0 * (1 - delta0);
  const q = (Math.sqrt(Math.max(0, B * B - 4 * A * C)) - B) / (2 * A);
  const variance = n * (2 * q + delta0 * (1 - delta0));
  const numerator = b - c - n * delta0;
  if (variance <= 0)
    return numerator === 0 ? 0 : numerator > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return numerator / Math.sqrt(variance);
}

/**
 * The Δ₀ in (lo, hi) where the decreasing function `score` crosses `target`, by bisection (the score
 * has no closed-form inverse); the ends when it does not cross inside.
 */
function crossing(score: (d: number) => number, target: number, lo: number, hi: number): number {
  if (score(lo) <= target) return lo;
  if (score(hi) >= target) return hi;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (score(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** A confidence interval for Δ. */
export interface Interval {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  /** Two-sided confidence level, e.g. 0.9. */
  readonly level: number;
}

/**
 * Tango's asymptotic score interval for the paired difference Δ at two-sided level `level`: the Δ₀ whose
 * score test is not rejected, |Z(Δ₀)| < z. The bounds are where Z crosses ±z_{(1+level)/2}.
 */
export function tangoInterval(counts: PairedCounts, level: number): Interval {
  if (!(counts.n > 0)) throw new RangeError('a paired interval needs at least one pair');
  if (counts.b < 0 || counts.c < 0 || counts.b + counts.c > counts.n) {
    throw new RangeError(`inconsistent paired counts b=${counts.b}, c=${counts.c}, n=${counts.n}`);
  }
  const z = normalQuantile((1 + level) / 2);
  const estimate = (counts.b - counts.c) / counts.n;
  const score = (d: number): number => tangoScore(counts, d);
  return {
    estimate,
    lower: crossing(score, z, -1, estimate),
    upper: crossing(score, -z, estimate, 1),
    level,
  };
}
