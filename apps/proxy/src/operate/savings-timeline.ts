import type { RequestSavings } from '../savings/savings-ledger.js';

/** Running totals after one request, at the time it finished. */
export interface TimelinePoint {
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly requests: number;
  /** Over priced requests only. */
  readonly billedUsd: number;
  readonly uncompressedUsd: number;
  /** Input tokens billed (input + cache writes + cache reads) and the uncompressed estimate of them. */
  readonly inputTokens: number;
  readonly inputTokensBefore: number;
  readonly cacheReadTokens: number;
}

/** Most points kept; past it every other point is dropped, so the curve keeps its whole history. */
const MAX_POINTS = 2000;
/** Overhead samples kept for the percentiles (the most recent). */
const MAX_OVERHEAD_SAMPLES = 2000;

/**
 * What the dashboard plots, kept in memory for the proxy's lifetime: running totals after every request
 * (thinned evenly once there are many), recent overheads, and originals read back per content class.
 * Content-free: numbers, model-independent, nothing from a prompt.
 */
export class SavingsTimeline {
  readonly #points: TimelinePoint[] = [];
  readonly #overheads: number[] = [];
  #overheadNext = 0;
  readonly #expands = new Map<string, number>();
  #last: TimelinePoint = {
    at: Date.now(),
    requests: 0,
    billedUsd: 0,
    uncompressedUsd: 0,
    inputTokens: 0,
    inputTokensBefore: 0,
    cacheReadTokens: 0,
  };

  /** Adds one finished request. */
  record(savings: RequestSavings): void {
    const { billed, uncompressed } = savings;
    const priced = savings.actualUsd !== null && savings.uncompressedUsd !== null;
    const last = this.#last;
    this.#last = {
      at: Date.now(),
      requests: last.requests + 1,
      billedUsd: last.billedUsd + (priced ? savings.actualUsd! : 0),
      uncompressedUsd: last.uncompressedUsd + (priced ? savings.uncompressedUsd! : 0),
      inputTokens: last.inputTokens + billed.input + billed.cacheWrite + billed.cacheRead,
      inputTokensBefore:
        last.inputTokensBefore + uncompressed.input + uncompressed.cacheWrite + uncompressed.cacheRead,
      cacheReadTokens: last.cacheReadTokens + billed.cacheRead,
    };
    this.#points.push(this.#last);
    if (this.#points.length > MAX_POINTS) {
      // Keep the first and the newest point, thin the rest evenly.
      const thinned = this.#points.filter((_, i) => i % 2 === 0 || i === this.#points.length - 1);
      this.#points.splice(0, this.#points.length, ...thinned);
    }
  }

  /** Adds one request's overhead in milliseconds. */
  recordOverhead(ms: number): void {
    if (this.#overheads.length < MAX_OVERHEAD_SAMPLES) this.#overheads.push(ms);
    else {
      this.#overheads[this.#overheadNext] = ms;
      this.#overheadNext = (this.#overheadNext + 1) % MAX_OVERHEAD_SAMPLES;
    }
  }

  /** Counts one original read back for the model. */
  recordExpand(kind: string): void {
    this.#expands.set(kind, (this.#expands.get(kind) ?? 0) + 1);
  }

  /** Running totals after each request, oldest first. */
  points(): readonly TimelinePoint[] {
    return [...this.#points];
  }

  /** The latest running totals. */
  latest(): TimelinePoint {
    return this.#last;
  }

  /** Originals read back per content class, most first. */
  expands(): { kind: string; count: number }[] {
    return [...this.#expands.entries()]
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  }

  /** Median and 99th percentile of the recent overheads (nearest rank), or null before any request. */
  overhead(): { p50Ms: number; p99Ms: number; samples: number } | null {
    if (this.#overheads.length === 0) return null;
    const sorted = [...this.#overheads].sort((a, b) => a - b);
    const rank = (q: number): number =>
      sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    return { p50Ms: rank(0.5), p99Ms: rank(0.99), samples: sorted.length };
  }
}
