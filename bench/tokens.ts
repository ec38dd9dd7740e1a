/**
 * `pnpm bench:tokens` — @distil/core's o200k counter (`countTokens`: a ~4 MB table in a SharedArrayBuffer)
 * beside gpt-tokenizer 4.0.0 (`countTokens(text, { disallowedSpecial: new Set() })`, the counter it
 * replaced and the reference its tests compare with), every figure in the same run:
 *
 *   speed   both count the same texts, rounds interleaved (new, library, new, …), median of the rounds:
 *           MB/s of UTF-8 and tokens/s; then the time to count one 200 KB text (the proxy's cold request
 *           counts one before and after compression), p50 over 200 KB cuts of the texts. Counts are
 *           compared text by text; the texts where they differ are named (U+FEFF, see count-o200k.ts).
 *   memory  each counter in a fresh child process (`--expose-gc`): RSS and V8 heap after its first count
 *           (tables loaded, garbage collected) minus before, and the time that first count took; then the
 *           same with two worker threads counting too (the new counter hands them its table; the library
 *           loads its tables in each thread, as the proxy's compress workers did).
 *
 * Texts: the corpus's tool outputs (`../shared/corpus/tool_outputs/*`, via bench/corpus-path.ts), up to
 * `--mb` MB (default 1) from each folder; without a corpus, the generated tool outputs under
 * datasets/generated. `--rounds N` (default 5).
 *
 *   pnpm bench:tokens [--mb 1] [--rounds 5]
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { countTokens, sharedTokenTable } from '@distil/core';
import { corpusPath } from './corpus-path.js';

type Counter = (text: string) => number;
const COUNTERS = ['distil', 'gpt-tokenizer'] as const;
type CounterName = (typeof COUNTERS)[number];

/** gpt-tokenizer's o200k count, its tables loaded on this call (resolved where core depends on it). */
function libraryCounter(): Counter {
  const load = createRequire(new URL('../packages/core/package.json', import.meta.url));
  const { countTokens: count } = load('gpt-tokenizer/encoding/o200k_base') as {
    countTokens: (text: string, options: { disallowedSpecial: ReadonlySet<string> }) => number;
  };
  const ordinary = { disallowedSpecial: new Set<string>() };
  return (text) => count(text, ordinary);
}

/** In the memory children, `none` is the baseline: the same process and threads, counting nothing. */
type ChildName = CounterName | 'none';

function counter(name: ChildName): Counter {
  if (name === 'none') return () => 0;
  return name === 'distil' ? countTokens : libraryCounter();
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

interface Text {
  readonly name: string;
  readonly text: string;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** Up to `megabytes` from each folder of tool outputs, files in name order. */
function loadTexts(megabytes: number): { readonly source: string; readonly texts: Text[] } {
  const corpus = corpusPath();
  const root = corpus
    ? join(corpus, 'tool_outputs')
    : fileURLToPath(new URL('../datasets/generated/tool_outputs', import.meta.url));
  const texts: Text[] = [];
  for (const folder of readdirSync(root).sort()) {
    const path = join(root, folder);
    if (!statSync(path).isDirectory()) continue;
    let bytes = 0;
    for (const file of filesUnder(path)) {
      if (bytes >= megabytes * 1e6) break;
      const text = readFileSync(file, 'utf8');
      texts.push({ name: file.slice(root.length + 1), text });
      bytes += Buffer.byteLength(text);
    }
  }
  return { source: corpus ? `corpus ${root}` : `generated ${root} (no corpus found)`, texts };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function timeMs(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function speed(texts: readonly Text[], rounds: number): void {
  const counters = { distil: counter('distil'), 'gpt-tokenizer': counter('gpt-tokenizer') };
  const bytes = texts.reduce((sum, { text }) => sum + Buffer.byteLength(text), 0);
  const expected = texts.map(({ text }) => counters['gpt-tokenizer'](text));
  const tokens = expected.reduce((sum, n) => sum + n, 0);
  const differ = texts.filter(({ text }, i) => counters.distil(text) !== expected[i]);
  console.log(
    `${texts.length} texts, ${(bytes / 1e6).toFixed(1)} MB, ${tokens.toLocaleString('en')} tokens; ` +
      `counts differ on ${differ.length}` +
      (differ.length > 0
        ? `: ${differ.map(({ name, text }) => `${name}${text.includes('\uFEFF') ? ' (has U+FEFF)' : ''}`).join(', ')}`
        : ''),
  );
  const times: Record<CounterName, number[]> = { distil: [], 'gpt-tokenizer': [] };
  for (let round = 0; round < rounds; round++)
    for (const name of COUNTERS)
      times[name].push(
        timeMs(() => {
          for (const { text } of texts) counters[name](text);
        }),
      );
  const cuts = cutsOf(texts, 200_000, 24);
  const cutTimes: Record<CounterName, number[]> = { distil: [], 'gpt-tokenizer': [] };
  for (const cut of cuts) for (const name of COUNTERS) cutTimes[name].push(timeMs(() => counters[name](cut)));
  console.log(`speed (median of ${rounds} interleaved rounds; one 200 KB text: p50 of ${cuts.length} cuts)`);
  for (const name of COUNTERS) {
    const seconds = median(times[name]) / 1000;
    console.log(
      `  ${name.padEnd(13)} ${(bytes / 1e6 / seconds).toFixed(1).padStart(6)} MB/s ` +
        `${(tokens / seconds / 1e6).toFixed(2).padStart(6)} M tokens/s | 200 KB in ${median(cutTimes[name]).toFixed(1).padStart(5)} ms`,
    );
  }
}

/** Up to `count` texts of `size` characters, cut in order from the texts joined. */
function cutsOf(texts: readonly Text[], size: number, count: number): string[] {
  const all = texts.map(({ text }) => text).join('\n');
  const cuts: string[] = [];
  for (let at = 0; at + size <= all.length && cuts.length < count; at += size)
    cuts.push(all.slice(at, at + size));
  return cuts;
}

interface Memory {
  readonly firstCountMs: number;
  readonly rssMb: number;
  readonly heapMb: number;
  readonly rssWithThreadsMb: number;
}

const MB = 1024 * 1024;
const SAMPLE = 'ERROR step 41: module_41 failed: cannot resolve ./dep_12 — 日本語 😀\n'.repeat(50);

/** In a fresh child: what loading the counter and its first count cost, then two threads counting too. */
async function childMemory(name: ChildName): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const before = process.memoryUsage();
  const start = performance.now();
  counter(name)(SAMPLE);
  const firstCountMs = performance.now() - start;
  gc();
  const after = process.memoryUsage();
  const threads = await Promise.all([countInThread(name), countInThread(name)]);
  gc();
  const withThreads = process.memoryUsage();
  await Promise.all(threads.map((thread) => thread.terminate()));
  const memory: Memory = {
    firstCountMs,
    rssMb: (after.rss - before.rss) / MB,
    heapMb: (after.heapUsed - before.heapUsed) / MB,
    rssWithThreadsMb: (withThreads.rss - before.rss) / MB,
  };
  process.stdout.write(`${JSON.stringify(memory)}\n`);
}

/** A worker thread (bench/tokens-thread.ts) that counts SAMPLE with `name`'s counter and stays alive. */
async function countInThread(name: ChildName): Promise<Worker> {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const worker = new Worker(new URL('./tokens-thread.cjs', import.meta.url), {
    workerData: { counter: name, text: SAMPLE, table: name === 'distil' ? sharedTokenTable() : undefined },
    execArgv: ['--import', new URL(`file://${tsx}`).href],
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return worker;
}

function memoryInChild(name: ChildName): Promise<Memory> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), '--child', name],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Memory)
        : reject(new Error(`child ${name}: exit ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const rounds = Number(arg('--rounds') ?? 5);
  const { source, texts } = loadTexts(Number(arg('--mb') ?? 1));
  console.log(`texts: ${source}`);
  speed(texts, rounds);
  console.log('memory (fresh child process each; after the first count, garbage collected, minus before)');
  const bare = await memoryInChild('none');
  for (const name of COUNTERS) {
    const m = await memoryInChild(name);
    console.log(
      `  ${name.padEnd(13)} first count ${m.firstCountMs.toFixed(0).padStart(4)} ms | RSS +${m.rssMb.toFixed(1).padStart(5)} MB ` +
        `| V8 heap +${m.heapMb.toFixed(1).padStart(5)} MB | with 2 worker threads counting too: RSS +${m.rssWithThreadsMb.toFixed(1).padStart(5)} MB`,
    );
  }
  console.log(
    `  (2 worker threads that count nothing: RSS +${bare.rssWithThreadsMb.toFixed(1)} MB, each loading tsx as in development)`,
  );
}

if (process.argv[2] === '--child') await childMemory(process.argv[3] as ChildName);
else await main();
