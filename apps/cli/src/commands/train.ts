import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  formatLogisticWeights,
  type LogisticTrainingResult,
  readTrainingCorpus,
  type SplitMetrics,
  trainLogisticKeepModel,
} from '@distil/codec';
import { parseOrThrow } from '@distil/contract';
import { distilHome } from '@distil/core';
import type { Command } from 'commander';
import { z } from 'zod';
import { formatTable } from '../table.js';
import {
  formatSessionTrainReport,
  runSessionTrain,
  type SessionTrainRun,
  sessionsIn,
} from './train-sessions.js';

/** The bundled dataset's tool outputs, relative to the working directory (the repository root for `pnpm distil`). */
export const DEFAULT_TRAINING_CORPUS = join('datasets', 'generated', 'tool_outputs');

const TrainFlags = z
  .object({
    corpus: z.string().min(1).default(DEFAULT_TRAINING_CORPUS),
    out: z.string().min(1).optional(),
    epochs: z.coerce.number().int('expected a whole number of epochs').positive().default(400),
    learningRate: z.coerce.number().positive().optional(),
    l2: z.coerce.number().nonnegative().default(1e-4),
  })
  .loose();
export type TrainFlags = z.input<typeof TrainFlags>;

/** What one training run wrote and measured. */
export interface TrainRun {
  readonly out: string;
  readonly result: LogisticTrainingResult;
  readonly files: number;
  readonly lines: number;
}

/**
 * Trains the logistic keep model on a folder of text and log files and writes its weights JSON. The same
 * corpus gives the same file, byte for byte. Errors name the folder or file that is missing or unreadable.
 */
export function runTrain(flags: TrainFlags, cwd: string = process.cwd()): TrainRun {
  const f = parseOrThrow(TrainFlags, flags, 'train options');
  const corpusPath = resolve(cwd, f.corpus);
  const corpus = readTrainingCorpus(corpusPath);
  const result = trainLogisticKeepModel(corpus.lines, {
    epochs: f.epochs,
    learningRate: f.learningRate,
    l2: f.l2,
    // Recorded relative to the working directory, so the file does not depend on where the repo sits.
    corpus: relative(cwd, corpusPath) || '.',
    files: corpus.files.length,
  });
  const out = resolve(cwd, f.out ?? join(distilHome(), 'keep-models', 'logistic.json'));
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, formatLogisticWeights(result.weights));
  } catch (error) {
    throw new Error(`cannot write weights to ${out}: ${(error as Error).message}`);
  }
  return { out, result, files: corpus.files.length, lines: corpus.lines.length };
}

const useIt = (out: string): void => {
  process.stderr.write(
    `use it with {"keepModel": {"type": "logistic", "weights": ${JSON.stringify(out)}}} in distil.config.json\n`,
  );
};

/**
 * `distil train` on a folder of recorded agent sessions (Claude Code, Codex, SWE-agent, OpenHands logs):
 * the block model, labelled by what the agents did. Null when the folder holds no session log, so the
 * caller trains the line model on its text files instead.
 */
export async function trainFromSessions(
  flags: TrainFlags & { licence?: string },
  cwd: string = process.cwd(),
): Promise<SessionTrainRun | null> {
  const f = parseOrThrow(TrainFlags, flags, 'train options');
  const corpus = resolve(cwd, f.corpus);
  const sessions = existsSync(corpus) ? sessionsIn(corpus) : [];
  if (sessions.length === 0) return null;
  return runSessionTrain({
    corpus,
    corpusLabel: basename(corpus),
    sessions,
    out: resolve(cwd, f.out ?? join(distilHome(), 'keep-models', 'logistic.json')),
    ...(flags.l2 === undefined ? {} : { l2: f.l2 }),
    licence: flags.licence ?? licenceNote(corpus),
  });
}

/** The licences the corpus ships beside its sessions (LICENSE files' first lines), as one note. */
function licenceNote(corpus: string): string {
  const notes = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (/^licen[cs]e/i.test(name)) notes.add(readFileSync(path, 'utf8').split('\n')[0]!.trim());
      else if (depth < 2 && statSync(path).isDirectory()) walk(path, depth + 1);
    }
  };
  walk(corpus, 0);
  return notes.size === 0 ? 'unknown: no LICENSE file beside the sessions' : [...notes].join('; ');
}

function metricsRow(split: string, m: SplitMetrics): (string | number)[] {
  const pct = (x: number) => (x * 100).toFixed(2);
  return [split, m.lines, pct(m.accuracy), pct(m.precision), pct(m.recall), m.f1.toFixed(4)];
}

/** The report `distil train` prints: where the weights went, then accuracy and F1 per split. */
export function formatTrainReport(run: TrainRun): string {
  const t = run.result.weights.training!;
  const header = [
    `corpus   ${t.corpus} (${run.files} files, ${run.lines} lines, ${t.uniqueLines} distinct)`,
    `weights  ${run.out}`,
    `training ${t.epochs} epochs, learning rate ${t.learningRate.toFixed(3)}, L2 ${t.l2}, final loss ${t.finalLoss.toFixed(4)}`,
    `labels   salience ≥ ${t.labelThreshold}; held out: lines whose SHA-256 falls in the first ${t.testFraction * 100}%`,
    '',
  ].join('\n');
  return `${header}\n${formatTable(
    ['split', 'lines', 'accuracy %', 'precision %', 'recall %', 'F1'],
    [metricsRow('train', t.train), metricsRow('held-out', t.test)],
  )}`;
}

/** `distil train [--corpus DIR] [--out FILE]`: trains the logistic keep model and prints held-out accuracy and F1. */
export function registerTrain(program: Command): void {
  program
    .command('train')
    .description(
      'train the logistic keep model: on recorded agent sessions (labels from what the agents did), or on a folder of text/log files; prints held-out figures',
    )
    .option('--corpus <dir>', 'folder of text/log files, read recursively', DEFAULT_TRAINING_CORPUS)
    .option('--out <file>', 'weights JSON to write (default: $DISTIL_HOME/keep-models/logistic.json)')
    .option('--epochs <n>', 'full-batch gradient-descent epochs', '400')
    .option(
      '--learning-rate <x>',
      'gradient-descent step size (default: 1.9 / L, the longest safe step for the corpus)',
    )
    .option('--l2 <x>', 'L2 penalty (default 0.0001; 0.001 for the block model on sessions)')
    .option('--licence <text>', 'licence note recorded with weights trained on recorded sessions')
    .action(async (opts: TrainFlags & { licence?: string }) => {
      const out = await trainFromSessions(opts);
      if (out === null) {
        const run = runTrain(opts);
        process.stdout.write(formatTrainReport(run));
        return useIt(run.out);
      }
      process.stdout.write(formatSessionTrainReport(out));
      useIt(out.out);
    });
}
