import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { distilHome } from '@distil/core';
import { writeFileAtomic } from '@distil/replay';
import { z } from 'zod';
import type { DivergenceClass } from './reply-decision.js';

const count = z.number().int().nonnegative();

/** Why a sampled request was not compared (content-free). */
export type SkipReason =
  | 'not_ok'
  | 'unreadable_reply'
  | 'shadow_failed'
  | 'continuation'
  | 'not_json'
  | 'too_large'
  | 'closed';

const DIVERGENCE_CLASSES = [
  'call_vs_answer',
  'answer_text',
  'call_count',
  'tool_name',
  'tool_arguments',
] as const;

/** Divergences one file keeps, newest last; counts are kept in full regardless. */
const MAX_KEPT_DIVERGENCES = 500;

/**
 * One proxy run's shadow record, as stored in `$DISTIL_HOME/shadow/<run>.json`. It holds counts, the
 * endpoint, the model name and how decisions differed — never a prompt, a reply, an argument or a header.
 */
export const ShadowRunFile = z
  .object({
    version: z.literal(1),
    startedAt: z.string(),
    updatedAt: z.string(),
    sampleRate: z.number().min(0).max(1),
    sampled: count,
    endpoints: z.record(z.string(), z.object({ compared: count, diverged: count }).strict()),
    skipped: z.record(z.string(), count),
    divergences: z.array(
      z
        .object({
          at: z.string(),
          endpoint: z.string(),
          model: z.string(),
          class: z.enum(DIVERGENCE_CLASSES),
        })
        .strict(),
    ),
  })
  .strict();
export type ShadowRunFile = z.infer<typeof ShadowRunFile>;

/** Where shadow records live: `$DISTIL_HOME/shadow`. */
export const shadowFolder = (home: string = distilHome()): string => join(home, 'shadow');

/**
 * The counts of one proxy run, persisted atomically (temp file, fsync, rename) to a file of its own, so
 * any number of proxies — replicas, `distil wrap` runs — record side by side without a lock and without
 * ever losing each other's counts; `readShadowStats` sums them.
 */
export class ShadowLedger {
  readonly path: string;
  #run: ShadowRunFile;
  #dirty = false;
  #scheduled: NodeJS.Immediate | null = null;

  constructor(home: string, sampleRate: number) {
    const now = new Date().toISOString();
    const id = `${now.replace(/[:.]/g, '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.path = join(shadowFolder(home), `${id}.json`);
    this.#run = {
      version: 1,
      startedAt: now,
      updatedAt: now,
      sampleRate,
      sampled: 0,
      endpoints: {},
      skipped: {},
      divergences: [],
    };
  }

  /** Counts a request picked for shadowing. */
  sampled(): void {
    this.#run.sampled++;
    this.#touch();
  }

  /** Counts a comparison; `diverged` is how the decisions differed, or null when they agreed. */
  compared(endpoint: string, model: string, diverged: DivergenceClass | null): void {
    const counts = this.#run.endpoints[endpoint] ?? { compared: 0, diverged: 0 };
    this.#run.endpoints[endpoint] = counts;
    counts.compared++;
    if (diverged) {
      counts.diverged++;
      this.#run.divergences.push({ at: new Date().toISOString(), endpoint, model, class: diverged });
      if (this.#run.divergences.length > MAX_KEPT_DIVERGENCES) this.#run.divergences.shift();
    }
    this.#touch();
  }

  /** Counts a sampled request that could not be compared. */
  skipped(reason: SkipReason): void {
    this.#run.skipped[reason] = (this.#run.skipped[reason] ?? 0) + 1;
    this.#touch();
  }

  /** This run's counts so far. */
  snapshot(): ShadowRunFile {
    return structuredClone(this.#run);
  }

  /** Writes the record now if anything changed since the last write. */
  flush(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#run.updatedAt = new Date().toISOString();
    writeFileAtomic(this.path, `${JSON.stringify(this.#run, null, 2)}\n`);
  }

  // Writes are coalesced to one per turn of the event loop, after the response that caused them ended.
  #touch(): void {
    this.#dirty = true;
    this.#scheduled ??= setImmediate(() => {
      this.#scheduled = null;
      try {
        this.flush();
      } catch {
        // A full disk must not take the proxy down; the counts stay in memory for the next write.
        this.#dirty = true;
      }
    });
  }
}

/** Shadow counts summed over every recorded run. */
export interface ShadowStats {
  readonly folder: string;
  readonly runs: number;
  readonly sampled: number;
  readonly compared: number;
  readonly diverged: number;
  readonly endpoints: Readonly<Record<string, { compared: number; diverged: number }>>;
  readonly skipped: Readonly<Record<string, number>>;
  readonly classes: Readonly<Record<string, number>>;
  readonly lastDivergenceAt: string | null;
  /** Files in the folder that are not shadow records (named, never silently dropped). */
  readonly unreadable: readonly string[];
}

/** Sums every shadow record under `home` (default $DISTIL_HOME); an empty summary when there is none. */
export function readShadowStats(home: string = distilHome()): ShadowStats {
  const folder = shadowFolder(home);
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const endpoints: Record<string, { compared: number; diverged: number }> = {};
  const skipped: Record<string, number> = {};
  const classes: Record<string, number> = {};
  const unreadable: string[] = [];
  let runs = 0;
  let sampled = 0;
  let last: string | null = null;
  for (const name of names.sort()) {
    const path = join(folder, name);
    let run: ShadowRunFile;
    try {
      run = ShadowRunFile.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      unreadable.push(path);
      continue;
    }
    runs++;
    sampled += run.sampled;
    for (const [endpoint, c] of Object.entries(run.endpoints)) {
      const sum = endpoints[endpoint] ?? { compared: 0, diverged: 0 };
      sum.compared += c.compared;
      sum.diverged += c.diverged;
      endpoints[endpoint] = sum;
    }
    for (const [reason, n] of Object.entries(run.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
    for (const d of run.divergences) {
      classes[d.class] = (classes[d.class] ?? 0) + 1;
      if (last === null || d.at > last) last = d.at;
    }
  }
  const totals = Object.values(endpoints);
  return {
    folder,
    runs,
    sampled,
    compared: totals.reduce((s, c) => s + c.compared, 0),
    diverged: totals.reduce((s, c) => s + c.diverged, 0),
    endpoints,
    skipped,
    classes,
    lastDivergenceAt: last,
    unreadable,
  };
}
