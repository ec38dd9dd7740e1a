import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Trajectory } from '@distil/contract';
import { type ProgressCallback, type Runner, resolveRunner, runFiles } from '@distil/replay';
import { importTrajectories } from '@distil/trajectories';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';

/** The flags every replay command shares. */
export interface ReplayFlags {
  trajectory?: string;
  runner?: string;
  model?: string;
  baseUrl?: string;
  concurrency?: string;
  cache?: boolean;
  json?: boolean;
  config?: string;
}

/** Adds `--trajectory`, `--runner`, `--model`, `--base-url`, `--concurrency`, `--no-cache` and `--json`. */
export function replayOptions(command: Command): Command {
  return command
    .option(
      '--trajectory <path>',
      'a trajectory file (distil JSON, SWE-agent .traj, OpenHands/Claude Code .jsonl, request body) or a folder of them; default: the bundled ones',
    )
    .option('--runner <name>', 'structural | anthropic | openai', 'structural')
    .option('--model <id>', 'model of a live runner (default: claude-sonnet-4-5 / gpt-4.1-mini)')
    .option(
      '--base-url <url>',
      'API base URL of a live runner (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the public API)',
    )
    .option('--concurrency <n>', 'requests in flight for a live runner (default 4)')
    .option('--no-cache', "don't read or write the live runners' response cache ($DISTIL_HOME/replay-cache)")
    .option('--json', 'print the full report as JSON');
}

/** The runner the flags name. */
export function runnerFromFlags(flags: ReplayFlags): Runner {
  const concurrency = flags.concurrency === undefined ? undefined : Number(flags.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new Error(`--concurrency must be a positive integer, not ${flags.concurrency}`);
  }
  return resolveRunner(flags.runner ?? 'structural', {
    model: flags.model,
    baseUrl: flags.baseUrl,
    concurrency,
    noCache: flags.cache === false,
  });
}

/** The trajectories of `--trajectory` (a file or a folder), else the bundled ones. */
export function trajectoriesFromFlag(path: string | undefined): Trajectory[] {
  const source = path ?? BUNDLED_TRAJECTORIES;
  if (!existsSync(source)) {
    throw new Error(
      path ? `no such file or folder: ${path}` : `no bundled trajectories at ${source}; pass --trajectory`,
    );
  }
  const files = statSync(source).isDirectory() ? runFiles(source) : [source];
  const trajectories = files.flatMap((file) => importTrajectories(file));
  if (trajectories.length === 0) throw new Error(`no trajectories in ${source}`);
  return trajectories;
}

/** A progress bar on stderr when it is a terminal (silent otherwise), driven by a ProgressCallback. */
export function progressBar(label: string): { readonly onProgress: ProgressCallback; stop(): void } {
  if (!process.stderr.isTTY) return { onProgress: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress: (done, total) => {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/** After a live run: how many model calls it made and how many answers came from the cache. */
export function reportLiveCalls(runner: Runner): void {
  const live = runner as Partial<{ calls: number; cacheHits: number }>;
  if (typeof live.calls === 'number') {
    process.stderr.write(
      `distil: ${runner.id}: ${live.calls} model call(s), ${live.cacheHits ?? 0} answered from the cache\n`,
    );
  }
}

/** A share as a percentage with one decimal. */
export const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
/** A count with thousands separators. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** The trajectories shipped in the repository (`datasets/generated/trajectories`). */
export const BUNDLED_TRAJECTORIES = fileURLToPath(
  new URL('../../../datasets/generated/trajectories', import.meta.url),
);
