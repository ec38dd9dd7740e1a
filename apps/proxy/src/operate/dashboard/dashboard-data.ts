import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DialPoint, LearnedPolicy, type PolicyEntry } from '@distil/replay';
import { z } from 'zod';
import type { SavingsTotals } from '../../savings/savings-ledger.js';
import type { SavingsTimeline, TimelinePoint } from '../savings-timeline.js';
import { readShadowStats, type ShadowStats } from '../shadow/shadow-ledger.js';
import { type ProportionInterval, wilsonInterval } from '../shadow/wilson-interval.js';

/** A panel whose data may be missing or broken: it says which, plainly, instead of showing made-up numbers. */
export type Panel<T> =
  | ({ readonly state: 'ok' } & T)
  | { readonly state: 'empty'; readonly message: string }
  | { readonly state: 'error'; readonly message: string };

/** Everything the dashboard shows, as served at `/distil/dashboard.json`. */
export interface DashboardData {
  readonly generatedAt: string;
  readonly home: string;
  readonly totals: SavingsTotals;
  /** The keep model deciding what is folded; `fallback` when the rules stand in for one that did not load. */
  readonly keepModel: { readonly id: string; readonly fallback: boolean } | null;
  /** Billed cache reads over all billed input; null before any input was billed. */
  readonly cacheHitRate: number | null;
  /** Uncompressed input tokens estimate vs billed, over every request. */
  readonly inputTokens: { readonly before: number; readonly after: number };
  readonly timeline: readonly TimelinePoint[];
  readonly overhead: { readonly p50Ms: number; readonly p99Ms: number; readonly samples: number } | null;
  readonly expands: readonly { readonly kind: string; readonly count: number }[];
  readonly shadow: {
    readonly sampleRate: number;
    readonly stats: Panel<{ readonly summary: ShadowStats; readonly interval: ProportionInterval }>;
  };
  readonly policy: Panel<{ readonly entries: readonly PolicyEntry[]; readonly protected: readonly string[] }>;
  readonly frontier: Panel<{
    readonly runner: string;
    readonly points: readonly DialPoint[];
    readonly source: string;
  }>;
}

/** Where the dashboard looks for the last frontier: `$DISTIL_HOME/frontier.json` (`distil frontier --json`). */
export const frontierPath = (home: string): string => join(home, 'frontier.json');

const DialPointShape = z.looseObject({
  target: z.number(),
  turns: z.number(),
  budget: z.number(),
  divergent: z.number(),
  equivalence: z.number(),
  tokens: z.number(),
  saved: z.number(),
  savings: z.number(),
});
/** The part of `distil frontier --json` output the dashboard reads. */
const FrontierFile = z.looseObject({ runner: z.string(), frontier: z.array(DialPointShape).min(1) });

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function policyPanel(load: () => LearnedPolicy): DashboardData['policy'] {
  try {
    const policy = load();
    const entries = policy.entries();
    if (entries.length === 0) {
      return {
        state: 'empty',
        message:
          'Nothing learned yet: expands feed the expand flywheel, regressions come from `distil certify-trajectories`; `distil learn` shows the same table.',
      };
    }
    return { state: 'ok', entries, protected: policy.protectedSignatures() };
  } catch (error) {
    return { state: 'error', message: `learned policy unreadable: ${message(error)}` };
  }
}

function frontierPanel(home: string): DashboardData['frontier'] {
  const path = frontierPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return { state: 'error', message: message(error) };
    return {
      state: 'empty',
      message: `No frontier yet. Run \`distil frontier --json > ${path}\` to plot savings against decision equivalence here.`,
    };
  }
  try {
    const parsed = FrontierFile.parse(JSON.parse(text));
    return { state: 'ok', runner: parsed.runner, points: parsed.frontier as DialPoint[], source: path };
  } catch (error) {
    return {
      state: 'error',
      message: `${path} is not the output of \`distil frontier --json\`: ${message(error)}`,
    };
  }
}

function shadowPanel(home: string, sampleRate: number): DashboardData['shadow'] {
  try {
    const summary = readShadowStats(home);
    if (summary.compared === 0) {
      return {
        sampleRate,
        stats: {
          state: 'empty',
          message:
            sampleRate > 0
              ? `No comparisons yet: ${(sampleRate * 100).toFixed(1)}% of requests are shadowed.`
              : 'Shadow mode is off for this proxy and no earlier run recorded comparisons.',
        },
      };
    }
    return {
      sampleRate,
      stats: { state: 'ok', summary, interval: wilsonInterval(summary.diverged, summary.compared) },
    };
  } catch (error) {
    return { sampleRate, stats: { state: 'error', message: message(error) } };
  }
}

/** Gathers the dashboard's data: this proxy's live figures plus what `home` holds from replay and shadow runs. */
export function dashboardData(
  home: string,
  totals: SavingsTotals,
  timeline: SavingsTimeline,
  shadowSampleRate: number,
  /** The learned policy to show: the running proxy's own, else what `home` stores. */
  policy: () => LearnedPolicy = () => LearnedPolicy.load(home),
  keepModel: DashboardData['keepModel'] = null,
): DashboardData {
  const latest = timeline.latest();
  const billedInput = totals.billed.input + totals.billed.cacheWrite + totals.billed.cacheRead;
  return {
    generatedAt: new Date().toISOString(),
    home,
    totals,
    keepModel,
    cacheHitRate: billedInput > 0 ? totals.billed.cacheRead / billedInput : null,
    inputTokens: { before: latest.inputTokensBefore, after: latest.inputTokens },
    timeline: timeline.points(),
    overhead: timeline.overhead(),
    expands: timeline.expands(),
    shadow: shadowPanel(home, shadowSampleRate),
    policy: policyPanel(policy),
    frontier: frontierPanel(home),
  };
}
