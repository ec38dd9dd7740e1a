import { normalQuantile } from '@distil/replay';

/** A two-sided confidence interval for a proportion. */
export interface ProportionInterval {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly confidence: number;
}

/**
 * The Wilson score interval for k successes in n trials (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 22, 1927). Chosen over the normal (Wald) interval because
 * divergences are rare: at k = 0 Wald collapses to [0, 0], while Wilson still says how high the rate
 * could be — exactly what a shadow sample of a few dozen requests needs. n = 0 gives [0, 1].
 */
export function wilsonInterval(k: number, n: number, confidence = 0.95): ProportionInterval {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (!(Number.isInteger(k) && Number.isInteger(n) && k >= 0 && n >= k))
    throw new RangeError(`expected integers 0 ≤ k ≤ n, got k=${k}, n=${n}`);
  if (n === 0) return { rate: 0, low: 0, high: 1, confidence };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return {
    rate: p,
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === n ? 1 : Math.min(1, centre + half),
    confidence,
  };
}
