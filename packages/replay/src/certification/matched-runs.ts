import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Outcome, parseOrThrow, type Trajectory } from '@distil/contract';
import { importTrajectories } from '@distil/trajectories';
import { z } from 'zod';
import type { ProgressCallback } from '../ablation.js';
import type { RunEvidence } from '../learn/guideline-flywheel.js';
import { digestedSignature, type Signature } from '../learn/signature.js';
import type { PairedOutcomes } from './non-inferiority.js';

/** Optional file in a runs folder giving outcomes by run id, for formats that do not record one. */
export const OUTCOMES_FILE = 'outcomes.json';
const OutcomesFile = z.record(z.string().min(1), Outcome);

/** One recorded run. */
export interface RunRecord {
  readonly id: string;
  readonly file: string;
  readonly outcome: Outcome | null;
  readonly trajectory: Trajectory;
}

const RUN_FILE = /\.(json|jsonl|traj)$/;

/** The run files of a folder (recursively, sorted), without the outcomes file. */
export function runFiles(folder: string): string[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder`);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return walk(path);
        return entry.isFile() &&
          RUN_FILE.test(entry.name) &&
          !(dir === folder && entry.name === OUTCOMES_FILE)
          ? [path]
          : [];
      });
  return walk(folder);
}

/**
 * Every run in a folder, in any format importTrajectory reads, with its outcome: the trajectory's own,
 * overridden by `outcomes.json` (`{"<run id>": "pass" | "fail"}`) when the folder has one. Two runs with
 * one id are an error naming both files.
 */
export function readRunsFolder(folder: string, onFile?: (file: string) => void): RunRecord[] {
  const outcomesPath = join(folder, OUTCOMES_FILE);
  const outcomes = existsSync(outcomesPath)
    ? parseOrThrow(OutcomesFile, readJson(outcomesPath), outcomesPath)
    : {};
  const runs = new Map<string, RunRecord>();
  for (const file of runFiles(folder)) {
    for (const trajectory of importTrajectories(file)) {
      const earlier = runs.get(trajectory.id);
      if (earlier)
        throw new Error(`run id ${trajectory.id} appears twice in ${folder}: ${earlier.file} and ${file}`);
      runs.set(trajectory.id, {
        id: trajectory.id,
        file,
        outcome: outcomes[trajectory.id] ?? trajectory.outcome,
        trajectory,
      });
    }
    onFile?.(file);
  }
  return [...runs.values()];
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** A task run with the full context and with compression. */
export interface MatchedPair {
  readonly id: string;
  readonly full: RunRecord;
  readonly compressed: RunRecord;
}

/** How the runs of two folders matched up. */
export interface Matching {
  readonly pairs: readonly MatchedPair[];
  /** Ids found in one folder only. */
  readonly onlyFull: readonly string[];
  readonly onlyCompressed: readonly string[];
  /** Matched ids left out because one of the two runs has no outcome. */
  readonly noOutcome: readonly string[];
}

/** Pairs runs by id; pairs without both outcomes are left out and listed. */
export function matchRuns(full: readonly RunRecord[], compressed: readonly RunRecord[]): Matching {
  const byId = new Map(compressed.map((r) => [r.id, r]));
  const fullIds = new Set(full.map((r) => r.id));
  const pairs: MatchedPair[] = [];
  const noOutcome: string[] = [];
  for (const f of full) {
    const c = byId.get(f.id);
    if (!c) continue;
    if (f.outcome === null || c.outcome === null) noOutcome.push(f.id);
    else pairs.push({ id: f.id, full: f, compressed: c });
  }
  return {
    pairs,
    onlyFull: full.filter((r) => !byId.has(r.id)).map((r) => r.id),
    onlyCompressed: compressed.filter((r) => !fullIds.has(r.id)).map((r) => r.id),
    noOutcome,
  };
}

/** The paired 2×2 table of matched pairs. */
export function pairedOutcomes(pairs: readonly MatchedPair[]): PairedOutcomes {
  const table = { bothPass: 0, compressedOnly: 0, fullOnly: 0, bothFail: 0 };
  for (const { full, compressed } of pairs) {
    if (full.outcome === 'pass' && compressed.outcome === 'pass') table.bothPass++;
    else if (compressed.outcome === 'pass') table.compressedOnly++;
    else if (full.outcome === 'pass') table.fullOnly++;
    else table.bothFail++;
  }
  return table;
}

/** Whether the compressed run failed a task the full run passed. */
export const regressed = (pair: MatchedPair): boolean =>
  pair.full.outcome === 'pass' && pair.compressed.outcome === 'fail';

/** The signatures of the blocks the compressed run sent digested (with fold stubs), sorted. */
export function digestedSignatures(trajectory: Trajectory): Signature[] {
  const found = new Set<Signature>();
  for (const turn of trajectory.turns) {
    for (const block of turn.blocks) {
      const signature = digestedSignature(block);
      if (signature !== null) found.add(signature);
    }
  }
  return [...found].sort();
}

/** A pair as guideline-flywheel evidence: content-free (signatures and a hash, nothing the runs said). */
export function runEvidence(pair: MatchedPair): RunEvidence {
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        pair.full.outcome,
        pair.compressed.outcome,
        pair.full.trajectory,
        pair.compressed.trajectory,
      ]),
    )
    .digest('hex');
  return { key, digested: digestedSignatures(pair.compressed.trajectory), regressed: regressed(pair) };
}

/** Reads both folders, reporting progress per file read. */
export function readMatchedRuns(
  fullFolder: string,
  compressedFolder: string,
  onProgress?: ProgressCallback,
): Matching {
  const total = runFiles(fullFolder).length + runFiles(compressedFolder).length;
  let done = 0;
  onProgress?.(0, total);
  const tick = (): void => onProgress?.(++done, total);
  return matchRuns(readRunsFolder(fullFolder, tick), readRunsFolder(compressedFolder, tick));
}
