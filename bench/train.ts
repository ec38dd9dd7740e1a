/**
 * Training speed of the transformer keep model: one epoch over 50,000 lines on 2 cores, extrapolated from a
 * measured sample, beside two baselines measured in the same run:
 *   - baseline: one thread, every line padded to 64 tokens, batches of 32, tfjs's own matMul gradient
 *     (the scatter-add embedding gradient stays: the wasm backend cannot run tfjs's gather gradient);
 *   - optimised, 1 thread: length-grouped batches and both custom gradients;
 *   - optimised, 2 worker threads averaging gradients (what `distil train-transformer` runs).
 * Wall time depends on what else the machine runs, so CPU time is reported too: CPU-seconds per line
 * divided by the thread count is what the epoch would take on otherwise idle cores.
 *
 * Usage: pnpm bench:train [--corpus DIR ...] [--lines 50000] [--sample 4000] [--threads 2]
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  batchGradients,
  bertBaseUncasedVocabulary,
  buildTrainingData,
  DEFAULT_DIMS,
  type EncodedLine,
  ensureBackend,
  type GradientEngine,
  InProcessGradientEngine,
  initBertParams,
  labelCorpusLines,
  padBatch,
  profileGradientStep,
  readTraceCorpus,
  trainBert,
  WorkerGradientEngine,
} from '@distil/train';
import { formatTable } from '../apps/cli/src/table.js';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const corpusDirs = (() => {
  const i = args.indexOf('--corpus');
  if (i < 0) return [join(root, 'datasets', 'generated')];
  const dirs: string[] = [];
  for (let j = i + 1; j < args.length && !(args[j] as string).startsWith('--'); j++)
    dirs.push(args[j] as string);
  return dirs;
})();
const epochLines = Number(arg('--lines') ?? 50_000);
const sample = Number(arg('--sample') ?? 4000);
const threads = Number(arg('--threads') ?? 2);
const SEQ_LEN = 64;

const full = bertBaseUncasedVocabulary();
const corpus = readTraceCorpus(corpusDirs, (w) => full.has(w));
// The vocabulary is trimmed over every training line, as a full run would, then an even sample is timed.
const data = buildTrainingData(labelCorpusLines(corpus), full, {
  labels: 'auto',
  seqLen: SEQ_LEN,
  trimVocabulary: true,
});
const lines = Array.from(
  { length: Math.min(sample, data.train.length) },
  (_, i) =>
    data.train[Math.floor((i * data.train.length) / Math.min(sample, data.train.length))] as EncodedLine,
);
const meanTokens = lines.reduce((n, l) => n + l.ids.length, 0) / lines.length;
const dims = { ...DEFAULT_DIMS, vocabSize: data.vocabulary.size };
process.stdout.write(
  `corpus ${corpusDirs.join(', ')}: training sample ${lines.length} lines (of ${data.availableTrainLines}), ` +
    `mean ${meanTokens.toFixed(1)} tokens/line at seq-len ${SEQ_LEN}; model 2×128, vocab ${dims.vocabSize} ` +
    `(${initBertParams(dims).count.toLocaleString()} parameters); load average ${loadavg()[0]?.toFixed(1)}\n`,
);

interface Measured {
  readonly name: string;
  readonly lines: number;
  readonly tokens: number;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  readonly threads: number;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

async function optimised(
  engine: GradientEngine,
  subset: readonly EncodedLine[],
  name: string,
): Promise<Measured> {
  const params = initBertParams(dims);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await trainBert(params, subset, [], { engine, epochs: 1, learningRate: 1e-3 });
  return {
    name,
    lines: subset.length,
    tokens: subset.reduce((n, l) => n + l.ids.length, 0),
    wallSeconds: (performance.now() - t0) / 1000,
    cpuSeconds: cpuSeconds(cpu),
    threads: engine.parallelism,
  };
}

/** The unoptimised recipe: fixed 64-token padding, batches of 32 lines, tfjs's matMul gradient. */
function baseline(subset: readonly EncodedLine[]): Measured {
  const params = initBertParams(dims);
  const grad = new Float32Array(params.count);
  const padded = subset.map((l) => {
    const ids = new Int32Array(SEQ_LEN);
    ids.set(l.ids.subarray(0, SEQ_LEN));
    return { ids, label: l.label, length: l.ids.length };
  });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < padded.length; i += 32) {
    const group = padded.slice(i, i + 32);
    const batch = padBatch(group);
    // Padding positions are masked out of attention and loss, exactly as in a dynamic batch.
    group.forEach((l, r) => {
      batch.mask.fill(0, r * SEQ_LEN + l.length, (r + 1) * SEQ_LEN);
    });
    batchGradients(params, batch, 1, grad, { plainMatMul: true });
  }
  return {
    name: 'baseline: 1 thread, pad to 64, tfjs matMul grad',
    lines: padded.length,
    tokens: subset.reduce((n, l) => n + l.ids.length, 0),
    wallSeconds: (performance.now() - t0) / 1000,
    cpuSeconds: cpuSeconds(cpu),
    threads: 1,
  };
}

await ensureBackend('auto');
const results: Measured[] = [];
results.push(baseline(lines.slice(0, Math.min(lines.length, 320))));
const single = await InProcessGradientEngine.start('auto');
results.push(
  await optimised(
    single,
    lines.slice(0, Math.min(lines.length, Math.ceil(sample / 4))),
    'optimised, 1 thread',
  ),
);
const pool = await WorkerGradientEngine.start(dims, initBertParams(dims).count, threads, 'auto');
try {
  results.push(await optimised(pool, lines, `optimised, ${threads} worker threads`));
} finally {
  await pool.close();
}

const minutes = (s: number) => `${(s / 60).toFixed(1)} min`;
const rows = results.map((r) => {
  const perLineWall = r.wallSeconds / r.lines;
  const perLineCpu = r.cpuSeconds / r.lines;
  return [
    r.name,
    String(r.lines),
    `${Math.round(r.tokens / r.wallSeconds)}`,
    `${(r.lines / r.wallSeconds).toFixed(0)}`,
    minutes(perLineWall * epochLines),
    minutes((perLineCpu * epochLines) / r.threads),
  ];
});
process.stdout.write(
  formatTable(
    [
      'configuration',
      'lines run',
      'tokens/s',
      'lines/s',
      `epoch of ${epochLines} (wall)`,
      'epoch on idle cores (CPU/threads)',
    ],
    rows,
  ),
);

// What limits it: the share of kernel time spent in matrix products on one representative batch.
const params = initBertParams(dims);
const batch = padBatch(lines.slice(0, Math.max(1, Math.floor(2048 / Math.ceil(meanTokens)))));
batchGradients(params, batch, 1, new Float32Array(params.count));
const byKernel = await profileGradientStep(params, batch);
const total = [...byKernel.values()].reduce((a, b) => a + b, 0);
const top = [...byKernel.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
process.stdout.write(
  `kernel time of one ${batch.rows}×${batch.seqLen} step: ${total.toFixed(0)} ms; ` +
    top.map(([name, ms]) => `${name} ${((100 * ms) / total).toFixed(0)}%`).join(', ') +
    `; load average now ${loadavg()[0]?.toFixed(1)}\n`,
);
