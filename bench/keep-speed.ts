/**
 * `pnpm bench:keep-speed` — how fast the shipped transformer keep model scores real tool-output lines, beside
 * the floor: raw onnxruntime `InferenceSession.run` on the very same pre-tokenised batches
 * (`TransformerKeepModel.batchesOf`), opened with the same session options. Everything `scoreLines` adds
 * on top of the model (deduplicating, tokenising, writing feeds, reading top-3 scores) is the gap between
 * the two columns. Lines: every tool output of the corpus's recorded agent sessions, and CI logs (set
 * DISTIL_CORPUS, default ../shared/corpus; generated log lines when it is absent). lines/s counts every
 * input line, repeats included, as a caller sees it.
 *
 * The model's GELU is rewritten into the form onnxruntime fuses (gelu-rewrite.ts); the raw session runs
 * the same rewritten graph, and one row of the options table runs both on the graph as exported.
 *
 * Printed, all in one run: tokenising alone; intra-op threads 1 and 2 × batch budgets; session options at
 * the defaults' threads and budget; and the raw floor of smaller random-weight models on the same batches,
 * which says what a smaller shipped model would reach.
 *
 * Usage: pnpm bench:keep-speed [--lines N] [--runs R]
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBertModelFolder } from '@distil/codec/testing';
import {
  DEFAULT_SESSION_OPTIONS,
  type EncodedBatch,
  fusableGelu,
  ortSessionOptions,
  TransformerKeepModel,
  type TransformerSessionOptions,
  WordPieceTokenizer,
  WordPieceTokenizerJson,
} from '@distil/codec/transformer';
import * as ort from 'onnxruntime-node';
import { formatTable } from '../apps/cli/src/table.js';
import { keepSpeedLines } from './keep-speed-lines.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const lineLimit = Number(arg('--lines') ?? 8000);
const runs = Number(arg('--runs') ?? 3);
const TARGET = 20_000;
const BUDGETS = [512, 1024, 2048, 4096];
const DEFAULT_BUDGET = 1024;

const folder = new URL('../packages/codec/models/keep-transformer', import.meta.url).pathname;
const modelBytes = readFileSync(join(folder, 'onnx', 'model.onnx'));

/** Wall seconds and cores used (CPU time ÷ wall time) of one timed run. */
interface Timing {
  readonly seconds: number;
  readonly cores: number;
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { seconds, cores: (cpu.user + cpu.system) / 1e6 / seconds };
}

/**
 * Best of `runs` for each contender, run in turns (a, b, c, a, b, c, …) so a burst of load from elsewhere
 * on the shared machine falls on all of them, not on one.
 */
async function bestInTurns(contenders: readonly (() => Promise<unknown>)[]): Promise<Timing[]> {
  const best: Timing[] = contenders.map(() => ({ seconds: Number.POSITIVE_INFINITY, cores: 0 }));
  for (let r = 0; r < runs; r++) {
    for (let c = 0; c < contenders.length; c++) {
      const t = await timed(contenders[c]!);
      if (t.seconds < best[c]!.seconds) best[c] = t;
    }
  }
  return best;
}

/** A raw onnxruntime session opened the way the model opens its own, on the same graph. */
async function rawSession(bytes: Uint8Array, o: Required<TransformerSessionOptions>) {
  const graph = (o.fuseGelu ? await fusableGelu(bytes) : null) ?? bytes;
  return ort.InferenceSession.create(graph, ortSessionOptions(o));
}

/** Tensors of every batch, built before timing: the raw run times `run` alone. */
function feedsOf(batches: readonly EncodedBatch[], withTypes: boolean): Record<string, ort.Tensor>[] {
  return batches.map((b) => {
    const dims = [b.rows, b.width];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', b.inputIds, dims),
      attention_mask: new ort.Tensor('int64', b.attentionMask, dims),
    };
    if (withTypes) feeds['token_type_ids'] = new ort.Tensor('int64', b.tokenTypeIds, dims);
    return feeds;
  });
}

const runAll = (session: ort.InferenceSession, feeds: readonly Record<string, ort.Tensor>[]) => async () => {
  for (const f of feeds) await session.run(f, ['logits']);
};

const rate = (lines: number, t: Timing): number => Math.round(lines / t.seconds);
const fmt = (n: number): string => n.toLocaleString('en-US');

interface Measured {
  readonly model: Timing;
  readonly raw: Timing;
}

/** One contender: session options and a batch budget. */
interface Config {
  readonly session: Required<TransformerSessionOptions>;
  readonly budget: number;
}

/**
 * scoreLines and the raw floor on the same lines for every config, all opened first and then timed in
 * turns across all of them: a change in the machine's load during the table falls on every row alike, so
 * rows compare with each other, not only with their own raw column.
 */
async function measureAll(lines: readonly string[], configs: readonly Config[]): Promise<Measured[]> {
  const opened: { model: TransformerKeepModel; raw: ort.InferenceSession }[] = [];
  try {
    const contenders: (() => Promise<unknown>)[] = [];
    for (const c of configs) {
      const model = await TransformerKeepModel.fromPretrained(folder, {
        session: c.session,
        batch: { tokens: c.budget },
      });
      const raw = await rawSession(modelBytes, c.session);
      opened.push({ model, raw });
      await model.warmUp();
      const feeds = feedsOf(model.batchesOf(lines), raw.inputNames.includes('token_type_ids'));
      await runAll(raw, feeds.slice(0, 4))();
      contenders.push(() => model.scoreLines(lines, 'tool_output'), runAll(raw, feeds));
    }
    const best = await bestInTurns(contenders);
    return configs.map((_, i) => ({ model: best[2 * i]!, raw: best[2 * i + 1]! }));
  } finally {
    for (const o of opened) {
      await o.model.release();
      await o.raw.release();
    }
  }
}

const tokenizerJson = () =>
  WordPieceTokenizerJson.parse(JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')));

process.stdout.write(
  `keep-speed: shipped transformer ${folder}\n` +
    `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}); best of ${runs} runs, contenders in turns\n`,
);
const probe = await TransformerKeepModel.fromPretrained(folder);
const maxTokens = probe.maxTokens;
await probe.release();
process.stdout.write(
  `sequences truncated to ${maxTokens} tokens (the folder's model_max_length, which the model was trained at)\n`,
);

const scratch = mkdtempSync(join(tmpdir(), 'distil-keep-speed-'));
const summary: (string | number)[][] = [];
try {
  for (const set of keepSpeedLines(lineLimit)) {
    const { lines } = set;
    const distinct = [...new Set(lines)];
    // Token lengths as scoreLines sees them: truncated, specials included.
    const tok = new WordPieceTokenizer(tokenizerJson());
    const sink: number[] = [];
    let tokens = 0;
    for (const line of distinct) {
      sink.length = 0;
      tokens += tok.encodeContent(line, sink, maxTokens - tok.specialCount) + tok.specialCount;
    }
    process.stdout.write(
      `\n== ${set.name}\n${fmt(lines.length)} lines, ${fmt(distinct.length)} distinct (${(
        (100 * distinct.length) / Math.max(1, lines.length)
      ).toFixed(0)}%), ${(tokens / Math.max(1, distinct.length)).toFixed(1)} tokens per distinct line\n`,
    );

    // Tokenising alone: a fresh tokenizer (its word cache empty) and one that has seen these lines.
    const encodeAll = (t: WordPieceTokenizer) => () => {
      for (const line of distinct) {
        sink.length = 0;
        t.encodeContent(line, sink, maxTokens - t.specialCount);
      }
    };
    let cold: Timing = { seconds: Number.POSITIVE_INFINITY, cores: 0 };
    for (let r = 0; r < runs; r++) {
      const t = await timed(encodeAll(new WordPieceTokenizer(tokenizerJson())));
      if (t.seconds < cold.seconds) cold = t;
    }
    const [warm] = await bestInTurns([async () => encodeAll(tok)()]);
    process.stdout.write(
      `tokenising alone: ${fmt(rate(lines.length, cold))} lines/s with an empty word cache, ${fmt(
        rate(lines.length, warm!),
      )} lines/s warm\n\n`,
    );

    // Threads (and whether idle ones spin) × batch budgets.
    const grid: (string | number)[][] = [];
    let bestModel = { lps: 0, label: '' };
    let bestRaw = { lps: 0, label: '' };
    const threading: [number, boolean][] = [
      [1, false],
      [2, false],
      [2, true],
    ];
    const gridConfigs = threading.flatMap(([threads, spinning]) =>
      BUDGETS.map((budget) => ({
        session: { ...DEFAULT_SESSION_OPTIONS, intraOpThreads: threads, spinning },
        budget,
      })),
    );
    const gridTimes = await measureAll(lines, gridConfigs);
    gridConfigs.forEach(({ session: { intraOpThreads: threads, spinning }, budget }, i) => {
      const m = gridTimes[i]!;
      const label = `${threads} thread${threads > 1 ? 's' : ''}${spinning ? ' spinning' : ''}, ${budget} tokens`;
      const lm = rate(lines.length, m.model);
      const lr = rate(lines.length, m.raw);
      if (lm > bestModel.lps) bestModel = { lps: lm, label };
      if (lr > bestRaw.lps) bestRaw = { lps: lr, label };
      grid.push([
        threads,
        spinning ? 'on' : 'off',
        budget,
        fmt(lm),
        fmt(lr),
        `${((100 * m.raw.seconds) / m.model.seconds).toFixed(0)}%`,
        m.model.cores.toFixed(2),
        m.raw.cores.toFixed(2),
      ]);
    });
    process.stdout.write(
      formatTable(
        [
          'threads',
          'spinning',
          'batch tokens',
          'scoreLines lines/s',
          'raw run lines/s',
          'run share',
          'cores (model)',
          'cores (raw)',
        ],
        grid,
      ),
    );
    process.stdout.write(
      'run share = raw run time ÷ scoreLines time: the rest is deduplicating, tokenising, feeds and scores\n\n',
    );

    // Session options at the default threads and budget, against the defaults in the same turns.
    const variants: [string, Partial<TransformerSessionOptions>][] = [
      ['defaults', {}],
      [
        'previous defaults: 2 threads spinning, GELU as exported',
        { intraOpThreads: 2, spinning: true, fuseGelu: false },
      ],
      ['GELU left as exported (fuseGelu false)', { fuseGelu: false }],
      ['executionMode parallel', { executionMode: 'parallel' }],
      ['graphOptimizationLevel basic', { graphOptimizationLevel: 'basic' }],
      ['graphOptimizationLevel extended', { graphOptimizationLevel: 'extended' }],
      ['enableCpuMemArena false', { enableCpuMemArena: false }],
    ];
    const options: (string | number)[][] = [];
    const optionTimes = await measureAll(
      lines,
      variants.map(([, change]) => ({
        session: { ...DEFAULT_SESSION_OPTIONS, ...change },
        budget: DEFAULT_BUDGET,
      })),
    );
    for (const [v, [name]] of variants.entries()) {
      const m = optionTimes[v]!;
      options.push([
        name,
        fmt(rate(lines.length, m.model)),
        fmt(rate(lines.length, m.raw)),
        m.model.cores.toFixed(2),
      ]);
    }
    const d = DEFAULT_SESSION_OPTIONS;
    process.stdout.write(
      `session options (defaults: ${d.intraOpThreads} intra-op threads, spinning ${d.spinning ? 'on' : 'off'}, ` +
        `${d.executionMode}, level ${d.graphOptimizationLevel}, arena ${d.enableCpuMemArena ? 'on' : 'off'}, ` +
        `GELU ${d.fuseGelu ? 'rewritten to fuse' : 'as exported'}; ` +
        `${DEFAULT_BUDGET}-token batches)\n`,
    );
    process.stdout.write(
      formatTable(['session options', 'scoreLines lines/s', 'raw run lines/s', 'cores (model)'], options),
    );

    summary.push([set.name, fmt(bestModel.lps), bestModel.label, fmt(bestRaw.lps), bestRaw.label]);

    // The raw floor of other model sizes on the same batches: what a smaller or larger shipped model would
    // reach (the model shipped before, 2 layers of hidden 128, among them).
    const vocab = readFileSync(join(folder, 'vocab.txt'), 'utf8')
      .split('\n')
      .filter((v) => v.length > 0);
    const probeModel = await TransformerKeepModel.fromPretrained(folder, {
      batch: { tokens: DEFAULT_BUDGET },
    });
    const batches = probeModel.batchesOf(lines);
    await probeModel.release();
    const sizes: [string, { hidden: number; heads: number; intermediate: number; layers: number }][] = [
      [
        '2 layers, hidden 128 (shipped before), GELU written as x/√2',
        { hidden: 128, heads: 2, intermediate: 512, layers: 2 },
      ],
      ['1 layer, hidden 128', { hidden: 128, heads: 2, intermediate: 512, layers: 1 }],
      ['2 layers, hidden 64 (the shipped size)', { hidden: 64, heads: 2, intermediate: 256, layers: 2 }],
      ['1 layer, hidden 64', { hidden: 64, heads: 2, intermediate: 256, layers: 1 }],
      ['1 layer, hidden 32', { hidden: 32, heads: 2, intermediate: 128, layers: 1 }],
    ];
    const shipped = await rawSession(modelBytes, DEFAULT_SESSION_OPTIONS);
    const shippedFeeds = feedsOf(batches, shipped.inputNames.includes('token_type_ids'));
    const sizeRows: (string | number)[][] = [];
    for (const [name, dims] of sizes) {
      const written = writeBertModelFolder(join(scratch, `${dims.layers}x${dims.hidden}`), {
        vocab,
        dims: { ...dims, maxPositions: maxTokens },
      });
      const other = await rawSession(
        readFileSync(join(written.folder, 'onnx', 'model.onnx')),
        DEFAULT_SESSION_OPTIONS,
      );
      const feeds = feedsOf(batches, other.inputNames.includes('token_type_ids'));
      await runAll(other, feeds.slice(0, 4))();
      const [s, o] = await bestInTurns([runAll(shipped, shippedFeeds), runAll(other, feeds)]);
      sizeRows.push([
        name,
        fmt(rate(lines.length, o!)),
        fmt(rate(lines.length, s!)),
        `${(s!.seconds / o!.seconds).toFixed(2)}×`,
      ]);
      await other.release();
    }
    await shipped.release();
    process.stdout.write(
      `\nraw run on the same batches, random weights of other sizes (defaults' session options)\n`,
    );
    process.stdout.write(
      formatTable(['model', 'raw run lines/s', 'shipped, same turns', 'speed-up'], sizeRows),
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

process.stdout.write(`\n== summary (target ≥ ${fmt(TARGET)} lines/s on 2 cores)\n`);
process.stdout.write(
  formatTable(['lines', 'best scoreLines lines/s', 'at', 'best raw run lines/s', 'at'], summary),
);
