import { join } from 'node:path';
import { distilHome } from '@distil/core';
import { z } from 'zod';
import { Signature } from './signature.js';
import { readStats, updateStats } from './stats-file.js';

/** When co-occurrence with regressions protects a signature. */
export interface GuidelineThresholds {
  /** Regressed runs that digested the signature, at least (default 2): once is a suspect, not a pattern. */
  readonly minRegressions: number;
  /** Share of the runs digesting it that regressed, at least (default 0.25). */
  readonly minShare: number;
}

/** Default thresholds of the guideline flywheel. */
export const DEFAULT_GUIDELINE_THRESHOLDS: GuidelineThresholds = Object.freeze({
  minRegressions: 2,
  minShare: 0.25,
});

const Counts = z
  .object({
    /** Compressed runs (of matched pairs) that digested the signature. */
    runs: z.number().int().nonnegative(),
    /** Of those, runs that failed where the full-context run passed. */
    regressions: z.number().int().nonnegative(),
    protectedSince: z.string().nullable(),
  })
  .strict();

/** The guideline statistics as stored. `evidence` holds content hashes of the pairs already counted. */
export const GuidelineStats = z
  .object({
    version: z.literal(1),
    signatures: z.record(z.string(), Counts),
    evidence: z.array(z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 hex digest')),
  })
  .strict()
  .refine((s) => Object.keys(s.signatures).every((k) => Signature.safeParse(k).success), {
    message: 'every key of signatures must be a signature like json:l',
  });
export type GuidelineStats = z.infer<typeof GuidelineStats>;

/** One matched pair as evidence: which signatures the compressed run digested, and whether it regressed. */
export interface RunEvidence {
  /** SHA-256 of the pair's content: the same pair fed twice is counted once. */
  readonly key: string;
  readonly digested: readonly Signature[];
  readonly regressed: boolean;
}

/** Where the guideline statistics live: `$DISTIL_HOME/learn/guideline-stats.json`. */
export const guidelineStatsPath = (home: string = distilHome()): string =>
  join(home, 'learn', 'guideline-stats.json');

const empty = (): GuidelineStats => ({ version: 1, signatures: {}, evidence: [] });

/** Pair hashes remembered, at most (the oldest are forgotten first). */
const MAX_EVIDENCE = 100_000;

/** Whether counts cross the thresholds. */
export function guidelineCrosses(runs: number, regressions: number, t: GuidelineThresholds): boolean {
  return regressions >= t.minRegressions && regressions >= t.minShare * runs;
}

/** The stored guideline statistics of `home` (empty when none were learned). */
export function readGuidelineStats(home: string = distilHome()): GuidelineStats {
  return readStats(guidelineStatsPath(home), GuidelineStats, empty);
}

/** What one round of learning changed. */
export interface GuidelineUpdate {
  readonly stats: GuidelineStats;
  /** Signatures protected by this round. */
  readonly newlyProtected: readonly Signature[];
  /** Pairs already counted before, ignored. */
  readonly repeated: number;
}

/**
 * The guideline flywheel (spec: "The learning flywheel", the trajectory-level one): every matched
 * full/compressed pair is evidence. When the full run passed and the compressed one failed, the
 * signatures the compressed run digested are suspects; a signature whose digestion keeps co-occurring
 * with regressions (see GuidelineThresholds) is protected — kept byte-exact from then on. Protection is
 * never withdrawn and counts only grow, so it only ever makes Distil more conservative. Stored under a
 * lock with an atomic write.
 */
export function learnFromRuns(
  evidence: readonly RunEvidence[],
  home: string = distilHome(),
  thresholds: GuidelineThresholds = DEFAULT_GUIDELINE_THRESHOLDS,
): GuidelineUpdate {
  const newlyProtected: Signature[] = [];
  let repeated = 0;
  const now = new Date().toISOString();
  const stats = updateStats(guidelineStatsPath(home), GuidelineStats, empty, (current) => {
    const next = structuredClone(current);
    const seen = new Set(next.evidence);
    const touched = new Set<Signature>();
    for (const run of evidence) {
      if (seen.has(run.key)) {
        repeated++;
        continue;
      }
      seen.add(run.key);
      next.evidence.push(run.key);
      for (const signature of new Set(run.digested)) {
        Signature.parse(signature);
        const c = next.signatures[signature] ?? { runs: 0, regressions: 0, protectedSince: null };
        c.runs++;
        if (run.regressed) c.regressions++;
        next.signatures[signature] = c;
        touched.add(signature);
      }
    }
    // Judged once the whole round is counted, so the order of the pairs in a round does not matter.
    for (const signature of [...touched].sort()) {
      const c = next.signatures[signature]!;
      if (c.protectedSince === null && guidelineCrosses(c.runs, c.regressions, thresholds)) {
        c.protectedSince = now;
        newlyProtected.push(signature);
      }
    }
    if (next.evidence.length > MAX_EVIDENCE) next.evidence.splice(0, next.evidence.length - MAX_EVIDENCE);
    return next;
  });
  return { stats, newlyProtected, repeated };
}
