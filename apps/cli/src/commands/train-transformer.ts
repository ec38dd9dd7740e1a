import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ContentKind, parseOrThrow } from '@distil/contract';
import type { Command } from 'commander';
import { z } from 'zod';
import { type SessionDocument, sessionDocuments, sessionsIn } from './train-sessions.js';

/** The bundled dataset (tool outputs, labels.jsonl, trajectories), relative to the repository root. */
export const DEFAULT_TRANSFORMER_CORPUS = join('datasets', 'generated');

const whole = (what: string) => z.coerce.number().int(`expected a whole number for ${what}`).positive();

const TrainTransformerFlags = z
  .object({
    corpus: z.array(z.string().min(1)).min(1).default([DEFAULT_TRANSFORMER_CORPUS]),
    out: z.string().min(1, 'expected an output folder'),
    epochs: whole('--epochs').default(3),
    base: z.string().min(1).optional(),
    maxLines: whole('--max-lines').optional(),
    seqLen: whole('--seq-len').min(8, 'expected --seq-len of at least 8').max(512).default(64),
    layers: whole('--layers').optional(),
    hidden: whole('--hidden').optional(),
    heads: whole('--heads').optional(),
    intermediate: whole('--intermediate').optional(),
    trimVocab: z.boolean().optional(),
    labels: z.enum(['auto', 'decision', 'salience']).default('auto'),
    kind: z.array(ContentKind).optional(),
    learningRate: z.coerce.number().positive().optional(),
    keepWeight: z.coerce.number().positive().optional(),
    patience: whole('--patience').default(2),
    threads: whole('--threads').default(2),
    backend: z.enum(['auto', 'node', 'wasm', 'cpu']).default('auto'),
    threshold: z.coerce.number().min(0).max(1).default(0.6),
    seed: z.coerce.number().int().default(42),
  })
  .loose();

/**
 * `distil train-transformer --corpus DIR --out DIR`: fine-tunes a small BERT keep model on a folder of
 * traces in tfjs, exports it to ONNX, checks the export against tfjs, and prints held-out metrics.
 */
export function registerTrainTransformer(program: Command): void {
  program
    .command('train-transformer')
    .description(
      'train a BERT keep model on your traces (tfjs, no Python), export ONNX, print held-out metrics',
    )
    .option(
      '--corpus <dirs...>',
      `corpus folders: text/log files, trajectories, labels.jsonl (default ${DEFAULT_TRANSFORMER_CORPUS})`,
    )
    .requiredOption(
      '--out <dir>',
      'model folder to write (config.json, tokenizer.json, onnx/model.onnx, metrics.json)',
    )
    .option('--epochs <n>', 'training epochs (default 3; early stopping on the dev split may end sooner)')
    .option('--base <dir>', 'fine-tune a local checkpoint: config.json + model.safetensors (+ vocab.txt)')
    .option('--max-lines <n>', 'train on at most this many lines, evenly sampled (default all)')
    .option('--seq-len <n>', 'longest sequence in tokens, [CLS]/[SEP] included (default 64)')
    .option('--layers <n>', 'encoder layers for a model from scratch (default 2)')
    .option('--hidden <n>', 'hidden size (default 64)')
    .option('--heads <n>', 'attention heads (default 2)')
    .option('--intermediate <n>', 'feed-forward size (default 256)')
    .option('--trim-vocab', 'keep only the vocabulary pieces the corpus uses (default on, off with --base)')
    .option('--no-trim-vocab', 'keep the whole vocabulary')
    .option(
      '--labels <source>',
      'auto | decision | salience (default auto: decision labels when the corpus has them)',
    )
    .option('--kind <kinds...>', 'train and evaluate only lines of these content kinds')
    .option('--learning-rate <x>', 'peak learning rate (default 1e-3 from scratch, 1e-4 with --base)')
    .option('--keep-weight <x>', 'loss weight of keep tokens (default √(drop/keep lines), within 1–4)')
    .option('--patience <n>', 'epochs without a better dev F1 before stopping (default 2)')
    .option('--threads <n>', 'worker threads averaging gradients (default 2)')
    .option('--backend <name>', 'auto | node | wasm | cpu (default auto: tfjs-node if installed, else wasm)')
    .option('--threshold <x>', 'keep threshold for the evaluation table (default 0.6)')
    .option('--seed <n>', 'seed of initialisation and batch order (default 42)')
    .action(async (_opts: unknown, cmd: Command) => {
      const raw = cmd.opts<Record<string, unknown>>();
      // commander sets trimVocab to true by default once --no-trim-vocab exists; only an explicit flag counts.
      const trimSource = cmd.getOptionValueSource('trimVocab');
      const flags = parseOrThrow(
        TrainTransformerFlags,
        { ...raw, trimVocab: trimSource === 'cli' ? raw['trimVocab'] : undefined },
        'train-transformer options',
      );
      // Loaded on use: @distil/train pulls in tfjs, which no other command needs at startup.
      const { trainTransformer } = await import('@distil/train');
      // a folder of recorded agent sessions is read as sessions: labels from what the agent wrote next,
      // split by session; any other folder as text files, trajectories and labels files
      const sessionRoots: string[] = [];
      const documents: SessionDocument[] = [];
      for (const folder of flags.corpus) {
        const sessions = existsSync(folder) && statSync(folder).isDirectory() ? sessionsIn(folder) : [];
        if (sessions.length === 0) continue;
        sessionRoots.push(folder);
        documents.push(...sessionDocuments(folder, sessions));
      }
      await trainTransformer({
        corpus: flags.corpus.filter((folder) => !sessionRoots.includes(folder)),
        sessionDocuments: documents,
        sessionRoots,
        out: flags.out,
        epochs: flags.epochs,
        seqLen: flags.seqLen,
        labels: flags.labels,
        patience: flags.patience,
        threads: flags.threads,
        backend: flags.backend,
        threshold: flags.threshold,
        seed: flags.seed,
        ...(flags.base ? { base: flags.base } : {}),
        ...(flags.maxLines ? { maxLines: flags.maxLines } : {}),
        ...(flags.layers ? { layers: flags.layers } : {}),
        ...(flags.hidden ? { hidden: flags.hidden } : {}),
        ...(flags.heads ? { heads: flags.heads } : {}),
        ...(flags.intermediate ? { intermediate: flags.intermediate } : {}),
        ...(flags.trimVocab === undefined ? {} : { trimVocabulary: flags.trimVocab }),
        ...(flags.kind ? { kinds: flags.kind } : {}),
        ...(flags.learningRate ? { learningRate: flags.learningRate } : {}),
        ...(flags.keepWeight ? { keepWeight: flags.keepWeight } : {}),
        log: (line) => process.stdout.write(`${line}\n`),
        progress: process.stderr,
      });
    });
}
