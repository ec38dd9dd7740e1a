import { REFERENCE_TOKEN } from './reference-tokens.js';

/**
 * A hashed bag-of-tokens prior: for each bucket of reference tokens, in how many labelled lines a token of
 * it occurred and in how many of those the line was needed. Agents write some tokens in almost every
 * session (`error`, `from`, test names, common paths) and never others (hashes, timings); the smoothed
 * rate of a token's bucket is what the block model learns that from. Tokens are hashed, not stored, so the
 * weights file carries counts, never text of the sessions it was trained on.
 */

/** Buckets of the shipped prior: 2^18, so an unseen token rarely lands in a bucket that has counts. */
export const PRIOR_BUCKETS = 1 << 18;

/** Pseudo-lines of the base rate mixed into every bucket's rate: a token seen once says little. */
export const PRIOR_SMOOTHING = 2;

/**
 * FNV-1a (32 bit) of a token, modulo `buckets`. Written here because it is six lines and only needs to
 * be fast and identical on every machine, not cryptographic.
 */
export function tokenBucket(token: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

/** The distinct buckets of a line's reference tokens. */
export function lineBuckets(line: string, buckets: number): number[] {
  const out = new Set<number>();
  for (const t of line.match(REFERENCE_TOKEN) ?? []) out.add(tokenBucket(t, buckets));
  return [...out];
}

/** What a block's features read of a prior: the smoothed needed-rate of a bucket, undefined when unseen. */
export interface TokenPrior {
  readonly buckets: number;
  rate(bucket: number): number | undefined;
}

/** A prior with no counts: every token unseen (a model trained without one, or an empty corpus). */
export const EMPTY_PRIOR: TokenPrior = { buckets: PRIOR_BUCKETS, rate: () => undefined };

/**
 * Counts of labelled lines by bucket and by group (a session with its subagents). The prior of a line in
 * training leaves its own group out, so a token seen only in that session is as unseen as it would be in
 * a session the model never read; that is what lets the learned weight of the prior hold on new sessions.
 */
export class TokenPriorCounts {
  /** Per bucket: [lines, needed lines], over every group. */
  private readonly total = new Map<number, [number, number]>();
  private readonly byGroup = new Map<string, Map<number, [number, number]>>();
  private lines = 0;
  private needed = 0;

  constructor(readonly buckets: number = PRIOR_BUCKETS) {}

  /** Adds one labelled line of `group`. */
  add(line: string, needed: boolean, group: string): void {
    this.lines++;
    if (needed) this.needed++;
    const counts = this.byGroup.get(group) ?? new Map<number, [number, number]>();
    this.byGroup.set(group, counts);
    for (const b of lineBuckets(line, this.buckets)) {
      for (const m of [this.total, counts]) {
        const e = m.get(b) ?? [0, 0];
        e[0]++;
        if (needed) e[1]++;
        m.set(b, e);
      }
    }
  }

  /** Share of needed lines: the rate every bucket is smoothed towards. */
  get baseRate(): number {
    return this.lines === 0 ? 0 : this.needed / this.lines;
  }

  /** The prior over every group but `leftOut` (every group when undefined). */
  prior(leftOut?: string): TokenPrior {
    const own = leftOut === undefined ? undefined : this.byGroup.get(leftOut);
    const base = this.baseRate;
    return {
      buckets: this.buckets,
      rate: (b) => {
        const e = this.total.get(b);
        if (e === undefined) return undefined;
        const o = own?.get(b);
        const n = e[0] - (o?.[0] ?? 0);
        if (n === 0) return undefined;
        return smoothedRate(n, e[1] - (o?.[1] ?? 0), base);
      },
    };
  }

  /** The counts as the weights file stores them: `bucket:lines:needed` triples, by bucket. */
  serialise(): SerialisedPrior {
    const entries = [...this.total].sort((a, b) => a[0] - b[0]);
    return {
      buckets: this.buckets,
      baseRate: this.baseRate,
      smoothing: PRIOR_SMOOTHING,
      counts: entries.map(([b, [n, k]]) => `${b}:${n}:${k}`).join(' '),
    };
  }
}

/** The prior as a weights file holds it. */
export interface SerialisedPrior {
  readonly buckets: number;
  readonly baseRate: number;
  readonly smoothing: number;
  /** Space-separated `bucket:lines:needed` triples. */
  readonly counts: string;
}

const smoothedRate = (lines: number, needed: number, base: number, smoothing = PRIOR_SMOOTHING): number =>
  (needed + smoothing * base) / (lines + smoothing);

/** The prior a weights file holds; throws naming the triple when the counts are malformed. */
export function readPrior(stored: SerialisedPrior): TokenPrior {
  const rates = new Map<number, number>();
  for (const triple of stored.counts.split(' ')) {
    if (triple === '') continue;
    const [b, n, k] = triple.split(':').map(Number);
    if (
      !Number.isInteger(b) ||
      !Number.isInteger(n) ||
      !Number.isInteger(k) ||
      b! < 0 ||
      b! >= stored.buckets ||
      n! <= 0 ||
      k! < 0 ||
      k! > n!
    )
      throw new Error(`tokenPrior.counts: malformed entry "${triple}"`);
    rates.set(b!, smoothedRate(n!, k!, stored.baseRate, stored.smoothing));
  }
  return { buckets: stored.buckets, rate: (b) => rates.get(b) };
}
