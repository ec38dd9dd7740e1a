import { join } from 'node:path';
import type { Block, Handle } from '@distil/contract';
import { distilHome } from '@distil/core';
import { z } from 'zod';
import { Signature, signatureOf } from './signature.js';
import { readStats, updateStats, updateStatsAsync } from './stats-file.js';

/** When a signature's expands say it is load-bearing. */
export interface ExpandThresholds {
  /** Fewest expands before any verdict (default 3): one or two expands are anecdotes. */
  readonly minExpands: number;
  /** Expand rate (expands / digests) at or above which digesting stops (default 0.25). */
  readonly rate: number;
}

/** Default thresholds of the expand flywheel. */
export const DEFAULT_EXPAND_THRESHOLDS: ExpandThresholds = Object.freeze({ minExpands: 3, rate: 0.25 });

const Counts = z
  .object({
    digests: z.number().int().nonnegative(),
    expands: z.number().int().nonnegative(),
    /** When the signature crossed the threshold; never cleared. */
    protectedSince: z.string().nullable(),
  })
  .strict();

/** The expand statistics as stored: counts per content-free signature. */
export const ExpandStats = z
  .object({ version: z.literal(1), signatures: z.record(z.string(), Counts) })
  .strict()
  .refine((s) => Object.keys(s.signatures).every((k) => Signature.safeParse(k).success), {
    message: 'every key of signatures must be a signature like json:l',
  });
export type ExpandStats = z.infer<typeof ExpandStats>;

/** Where the expand statistics live: `$DISTIL_HOME/learn/expand-stats.json`. */
export const expandStatsPath = (home: string = distilHome()): string =>
  join(home, 'learn', 'expand-stats.json');

const empty = (): ExpandStats => ({ version: 1, signatures: {} });

/** The stored expand statistics of `home` (empty when nothing was recorded yet). */
export function readExpandStats(home: string = distilHome()): ExpandStats {
  return readStats(expandStatsPath(home), ExpandStats, empty);
}

/** Whether counts cross the thresholds. */
export function expandCrosses(digests: number, expands: number, t: ExpandThresholds): boolean {
  return expands >= t.minExpands && expands >= t.rate * Math.max(digests, 1);
}

/** Handles remembered for attributing expands, at most (oldest forgotten first). */
const MAX_TRACKED_HANDLES = 50_000;

/**
 * The expand flywheel (spec: "The learning flywheel"). Every distil_expand is evidence that a digested
 * block was load-bearing; expands and digests are tallied per content-free signature, and a signature
 * whose expand rate crosses the threshold is protected — never digested again, kept byte-exact. Protection
 * is sticky and counts only grow, so the flywheel only ever makes Distil more conservative.
 *
 * Counts are kept in memory and merged into `$DISTIL_HOME/learn/expand-stats.json` by `flush()` (or
 * `flushAsync()`, for a server), under a lock and with an atomic write, so several processes can feed one
 * file; a flush also takes in what the others wrote. Verdicts count what is not written yet, so a
 * signature is protected from the event that crossed its threshold on.
 */
export class ExpandFlywheel {
  private stored: ExpandStats;
  private readonly pending = new Map<Signature, { digests: number; expands: number }>();
  /** Counts taken by a flushAsync still writing: still counted until the file holds them. */
  private readonly inFlight = new Map<Signature, { digests: number; expands: number }>();
  private readonly latched = new Set<Signature>();
  private readonly handles = new Map<Handle, Signature>();

  private constructor(
    readonly path: string,
    readonly thresholds: ExpandThresholds,
  ) {
    this.stored = readStats(path, ExpandStats, empty);
  }

  /** The flywheel of `home` (default $DISTIL_HOME), with its stored statistics loaded. */
  static open(
    home: string = distilHome(),
    thresholds: ExpandThresholds = DEFAULT_EXPAND_THRESHOLDS,
  ): ExpandFlywheel {
    return new ExpandFlywheel(expandStatsPath(home), thresholds);
  }

  /** Counts `n` digests of blocks of `signature`. */
  recordDigest(signature: Signature, n = 1): void {
    this.bump(signature, n, 0);
  }

  /** Counts `n` expands of blocks of `signature`. */
  recordExpand(signature: Signature, n = 1): void {
    this.bump(signature, 0, n);
  }

  /**
   * Counts the digest of `block` (its original) and remembers which signature each of its handles has, so
   * a later expand of one of them can be attributed with {@link recordExpandOf}.
   */
  trackDigest(block: Pick<Block, 'kind' | 'text'>, handles: readonly Handle[]): void {
    const signature = signatureOf(block);
    this.recordDigest(signature);
    for (const handle of handles) {
      this.handles.delete(handle);
      this.handles.set(handle, signature);
      if (this.handles.size > MAX_TRACKED_HANDLES) this.handles.delete(this.handles.keys().next().value!);
    }
  }

  /** Counts an expand of `handle` when its digest was tracked here; false when it was not. */
  recordExpandOf(handle: Handle): boolean {
    const signature = this.handles.get(handle);
    if (signature === undefined) return false;
    this.recordExpand(signature);
    return true;
  }

  /** Whether blocks of `signature` must no longer be digested. */
  isProtected(signature: string): boolean {
    if (this.latched.has(signature) || this.stored.signatures[signature]?.protectedSince) return true;
    const c = this.counts(signature);
    return expandCrosses(c.digests, c.expands, this.thresholds);
  }

  /** Stored counts plus those not yet flushed. */
  counts(signature: string): { digests: number; expands: number } {
    const stored = this.stored.signatures[signature];
    const pending = this.pending.get(signature);
    const writing = this.inFlight.get(signature);
    return {
      digests: (stored?.digests ?? 0) + (writing?.digests ?? 0) + (pending?.digests ?? 0),
      expands: (stored?.expands ?? 0) + (writing?.expands ?? 0) + (pending?.expands ?? 0),
    };
  }

  /** Whether counts were recorded that no flush has written yet. */
  get dirty(): boolean {
    return this.pending.size > 0;
  }

  /** The statistics as they would be after a flush. */
  snapshot(): ExpandStats {
    const unwritten = new Map(this.inFlight);
    addCounts(unwritten, this.pending);
    return merge(this.stored, unwritten, this.latched, this.thresholds, new Date().toISOString());
  }

  /** Merges the pending counts into the stored file (locked, atomic). Not while a flushAsync runs. */
  flush(): void {
    const now = new Date().toISOString();
    this.stored = updateStats(this.path, ExpandStats, empty, (current) =>
      merge(current, this.pending, this.latched, this.thresholds, now),
    );
    this.pending.clear();
  }

  /**
   * flush() without blocking the event loop. Counts recorded while it writes wait for the next flush; when
   * the write fails, the counts it took are pending again (nothing is lost, nothing counted twice).
   */
  async flushAsync(): Promise<void> {
    const taken = new Map(this.pending);
    this.pending.clear();
    addCounts(this.inFlight, taken);
    let written = false;
    try {
      const now = new Date().toISOString();
      this.stored = await updateStatsAsync(this.path, ExpandStats, empty, (current) =>
        merge(current, taken, this.latched, this.thresholds, now),
      );
      written = true;
    } finally {
      // In the same step as `stored` took them in, so counts() never sees them twice or not at all.
      addCounts(this.inFlight, taken, -1);
      if (!written) addCounts(this.pending, taken);
    }
  }

  private bump(signature: Signature, digests: number, expands: number): void {
    Signature.parse(signature);
    const p = this.pending.get(signature) ?? { digests: 0, expands: 0 };
    p.digests += digests;
    p.expands += expands;
    this.pending.set(signature, p);
    const c = this.counts(signature);
    if (expandCrosses(c.digests, c.expands, this.thresholds)) this.latched.add(signature);
  }
}

type CountMap = Map<Signature, { digests: number; expands: number }>;

/** Adds `sign` × `from` into `into`, dropping rows that reach zero. */
function addCounts(
  into: CountMap,
  from: ReadonlyMap<Signature, { digests: number; expands: number }>,
  sign = 1,
): void {
  for (const [signature, c] of from) {
    // a new row each time: maps copied from one another never share one
    const prev = into.get(signature);
    const row = {
      digests: (prev?.digests ?? 0) + sign * c.digests,
      expands: (prev?.expands ?? 0) + sign * c.expands,
    };
    if (row.digests === 0 && row.expands === 0) into.delete(signature);
    else into.set(signature, row);
  }
}

function merge(
  current: ExpandStats,
  pending: ReadonlyMap<Signature, { digests: number; expands: number }>,
  latched: ReadonlySet<Signature>,
  thresholds: ExpandThresholds,
  now: string,
): ExpandStats {
  const signatures = structuredClone(current.signatures);
  const touched = new Set([...pending.keys(), ...latched]);
  for (const signature of touched) {
    const c = signatures[signature] ?? { digests: 0, expands: 0, protectedSince: null };
    const p = pending.get(signature);
    c.digests += p?.digests ?? 0;
    c.expands += p?.expands ?? 0;
    if (
      c.protectedSince === null &&
      (latched.has(signature) || expandCrosses(c.digests, c.expands, thresholds))
    ) {
      c.protectedSince = now;
    }
    signatures[signature] = c;
  }
  return { version: 1, signatures };
}
