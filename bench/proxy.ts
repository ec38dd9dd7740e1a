/**
 * `pnpm bench:proxy` — what the proxy costs on top of calling the same upstream directly.
 *
 * Three processes: a fake upstream speaking each provider's non-streaming wire format, the proxy
 * (startProxy, in-memory store, salience rules; see bench/proxy-roles.ts), and this client. Each measured
 * request is a ~200 KB body (a 40-turn agent conversation, every tool result a log that folds) in one of
 * three dialects: Anthropic Messages (the default), OpenAI Chat Completions (`role: "tool"` messages) or
 * OpenAI Responses (`function_call_output` items). Direct and proxied requests are interleaved
 * one by one, so both see the same machine noise; the overhead is proxied minus direct, at p50 and p99.
 * Scenarios:
 *   warm session  — the conversation the session already holds (every block known: the steady state of
 *                   an agent loop, where only the last turn is new);
 *   bypass        — `x-distil-bypass: 1`, the pure relay;
 *   cold session  — a conversation the proxy has never seen (every tool result compressed now).
 * Then 100 live sessions, each holding such a conversation, and the proxy process's resident memory
 * (VmRSS from /proc/<pid>/status, read right after the last request, no GC forced: everything the
 * process holds — node's own ~40 MB, code, the o200k token table (~4 MB, built by the first count),
 * sessions, the in-memory restore store, garbage not yet collected), idle and loaded, with what its V8
 * heap and buffers hold beside it.
 *
 * The proxy runs two ways, each measured in full:
 *   built — the proxy bundled to plain JavaScript (esbuild, through tsup) and run on plain node: how an
 *           installed `distil proxy` runs (published packages ship compiled `dist/`);
 *   tsx   — the TypeScript sources under tsx, as in development; tsx's loader thread and source maps
 *           add ~35–40 MB of RSS and some CPU that the shipped proxy does not carry.
 * The targets (issue: warm overhead p50 ≤ 1 ms, p99 ≤ 5 ms; RSS ≤ 200 MB with 100 live sessions) are
 * checked against the built proxy; both are printed.
 *
 *   pnpm bench:proxy [--samples N] [--variant built|tsx|both] [--dialect messages|chat|responses|all]
 *   pnpm bench:proxy --concurrency 1,32,128 [--variant built|tsx]
 * With `--concurrency`, the concurrent scenarios instead (bench/proxy-concurrency.ts): per number of
 * clients, Distil beside a plain node:http pipe and direct; a new 200 KB tool result beside warm streams
 * (compressed in-thread, in the compress pool, and in the pool with the default disk store), and with
 * the default disk store one at a time behind an upstream that answers after 250 ms, as a model does;
 * RSS with 100 and 1,000 live sessions; ratios to the pipe from the same run.
 * `--samples` sets the interleaved pairs per scenario (default 400). `--dialect` picks the request
 * dialect (default messages); with `all`, one block per dialect, each against a fresh proxy process, and
 * a targets line per dialect. BENCH_PROXY_NODE_ARGS adds node
 * flags to the proxy process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). The proxy runs with the
 * expand flywheel on, as installed, in a home of its own; BENCH_LEARN=0 turns it off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import {
  coldBehindModel,
  coldBesideWarm,
  liveSessionMemory,
  warmUnderConcurrency,
} from './proxy-concurrency.js';
import { AUTH, conversation, DIALECTS, type Dialect, ROUTE } from './proxy-dialects.js';

/**
 * How long the fake upstream takes to answer in the scenario with a model's wait: well under what a real
 * model takes to its first byte on a 200 KB prompt (seconds), enough to hide the disk store's syncs.
 */
const MODEL_FIRST_BYTE_MS = 250;

const ROLES = fileURLToPath(new URL('./proxy-roles.ts', import.meta.url));
/** The proxy's compress worker, bundled beside the proxy role (where the proxy looks for it). */
const COMPRESS_WORKER = fileURLToPath(new URL('../apps/proxy/src/pool/compress-worker.ts', import.meta.url));

interface Child {
  readonly process: ChildProcess;
  readonly port: number;
  /** The next line the child prints after its port. */
  nextLine(): Promise<string>;
}

function start(command: string[], env: NodeJS.ProcessEnv = process.env): Promise<Child> {
  const proc = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error(`${command.join(' ')} closed its output`);
    return line.value;
  };
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}`)));
    nextLine().then((port) => resolve({ process: proc, port: Number(port), nextLine }), reject);
  });
}

/** What the proxy's V8 heap and buffers hold (its own process.memoryUsage(), asked for by SIGUSR2). */
async function heapOf(proxy: Child): Promise<string> {
  proxy.process.kill('SIGUSR2');
  const usage = JSON.parse(await proxy.nextLine()) as NodeJS.MemoryUsage;
  const mb = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
  return `heap ${mb(usage.heapUsed)} used of ${mb(usage.heapTotal)}, buffers ${mb(usage.arrayBuffers)}`;
}

/** Packages the proxy loads only on demand (native code, wasm, ML runtimes): left out of the bundle. */
const LOADED_ON_DEMAND = [
  'onnxruntime-node',
  '@huggingface/transformers',
  'web-tree-sitter',
  'typescript',
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-node',
  '@tensorflow/tfjs-backend-wasm',
];

/**
 * Packages left out of the bundle because they find files of their own beside their code, as installed:
 * piscina starts its workers from its own `worker.js`. They resolve from the proxy package's
 * node_modules, which is why the bundle is written below it.
 */
const INSTALLED_BESIDE = ['piscina'];

/**
 * Bundles the proxy role into one ESM file, and the proxy's compress worker beside it (where the proxy
 * looks for it); returns the role's path and the folder to delete afterwards.
 */
async function bundleProxy(): Promise<{ file: string; folder: string }> {
  const below = fileURLToPath(new URL('../apps/proxy/node_modules/.cache/', import.meta.url));
  mkdirSync(below, { recursive: true });
  const folder = mkdtempSync(join(below, 'distil-bench-proxy-'));
  await build({
    config: false,
    entry: { 'proxy-roles': ROLES, 'compress-worker': COMPRESS_WORKER },
    outDir: folder,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    splitting: false,
    sourcemap: false,
    dts: false,
    silent: true,
    // Every package bundled but those (tsup's noExternal wins over external, so they are excluded here).
    noExternal: [
      new RegExp(
        `^(?!${[...LOADED_ON_DEMAND, ...INSTALLED_BESIDE].map((name) => name.replace('/', '\\/')).join('|')})`,
      ),
    ],
    external: [...LOADED_ON_DEMAND, ...INSTALLED_BESIDE],
    // CommonJS packages inside an ESM bundle still call require().
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return { file: join(folder, 'proxy-roles.js'), folder };
}

/**
 * Where the bundle's remaining `require`s resolve: core finds o200k's ranks file (gpt-tokenizer's
 * `data/o200k_base.tiktoken`) through `createRequire` on first count, which a bundler cannot see, so the
 * bundle finds it in core's own dependencies (NODE_PATH applies to require.resolve).
 */
function coreModules(): string {
  // '@distil/core' resolves to packages/core/src/index.ts in the workspace.
  const coreEntry = createRequire(import.meta.url).resolve('@distil/core');
  return join(dirname(coreEntry), '..', 'node_modules');
}

// The client side: node:http with keep-alive, the same for both paths.
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function send(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; overhead: number }> {
  const payload = Buffer.from(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          ...headers,
        },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          const ms = performance.now() - started;
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve({ ms, overhead: Number(res.headers['x-distil-overhead-ms'] ?? Number.NaN) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const fmt = (ms: number): string => `${ms.toFixed(2)} ms`.padStart(10);

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) a process has used, in ms: /proc/<pid>/stat fields 14–15, in USER_HZ (100). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Scenario {
  readonly p50: number;
  readonly p99: number;
}

/** Where one dialect's requests go, directly and through the proxy, with its credentials. */
interface Urls {
  readonly upstream: string;
  readonly proxy: string;
  readonly pid: number;
  readonly auth: Record<string, string>;
}

async function interleaved(
  label: string,
  urls: Urls,
  samples: number,
  body: (i: number) => string,
  headers: (i: number) => Record<string, string>,
): Promise<Scenario> {
  const direct: number[] = [];
  const proxied: number[] = [];
  const reported: number[] = [];
  const cpuBefore = cpuMs(urls.pid);
  for (let i = 0; i < samples; i++) {
    const b = body(i);
    direct.push((await send(urls.upstream, b, urls.auth)).ms);
    const viaProxy = await send(urls.proxy, b, { ...urls.auth, ...headers(i) });
    proxied.push(viaProxy.ms);
    reported.push(viaProxy.overhead);
  }
  const cpuPerRequest = (cpuMs(urls.pid) - cpuBefore) / samples;
  const p50 = quantile(proxied, 0.5) - quantile(direct, 0.5);
  const p99 = quantile(proxied, 0.99) - quantile(direct, 0.99);
  console.log(
    `  ${label.padEnd(13)} direct p50 ${fmt(quantile(direct, 0.5))} p99 ${fmt(quantile(direct, 0.99))} | ` +
      `proxy p50 ${fmt(quantile(proxied, 0.5))} p99 ${fmt(quantile(proxied, 0.99))} | ` +
      `overhead p50 ${fmt(p50)} p99 ${fmt(p99)} | self-reported p50 ${fmt(quantile(reported, 0.5))} | ` +
      `proxy CPU ${fmt(cpuPerRequest)}/req  (n=${samples})`,
  );
  return { p50, p99 };
}

interface VariantResult {
  readonly warm: Scenario;
  readonly idleRss: number;
  readonly liveRss: number;
}

/**
 * Every scenario of one dialect against one proxy process (a fresh one per dialect, so each RSS figure
 * holds that dialect's 100 sessions only), then its memory with 100 live sessions.
 */
async function measure(
  proxy: Child,
  upstreamBase: string,
  samples: number,
  dialect: Dialect,
): Promise<VariantResult> {
  const urls: Urls = {
    upstream: `${upstreamBase}${ROUTE[dialect]}`,
    proxy: `http://127.0.0.1:${proxy.port}${ROUTE[dialect]}`,
    pid: proxy.process.pid!,
    auth: AUTH[dialect],
  };
  const idleRss = rssMb(urls.pid);
  const idleHeap = await heapOf(proxy);
  const warmBody = conversation(0, dialect);
  // Warm up both paths (JIT, connections) and let the session learn the conversation.
  for (let i = 0; i < 50; i++) {
    await send(urls.upstream, warmBody, urls.auth);
    await send(urls.proxy, warmBody, { ...urls.auth, 'x-distil-session': 'warm' });
  }
  const warm = await interleaved(
    'warm session',
    urls,
    samples,
    () => warmBody,
    () => ({ 'x-distil-session': 'warm' }),
  );
  await interleaved(
    'bypass',
    urls,
    samples,
    () => warmBody,
    () => ({ 'x-distil-bypass': '1' }),
  );
  await interleaved(
    'cold session',
    urls,
    30,
    (i) => conversation(1000 + i, dialect),
    (i) => ({ 'x-distil-session': `cold-${i}` }),
  );
  // 100 live sessions, each holding its own 200 KB conversation (the 30 cold ones above count).
  for (let i = 30; i < 100; i++)
    await send(urls.proxy, conversation(1000 + i, dialect), {
      ...urls.auth,
      'x-distil-session': `cold-${i}`,
    });
  const liveRss = rssMb(urls.pid);
  const liveHeap = await heapOf(proxy);
  console.log(
    `  RSS           idle ${idleRss.toFixed(0)} MB (${idleHeap}) | ` +
      `with 100 live sessions ${liveRss.toFixed(0)} MB (${liveHeap})`,
  );
  return { warm, idleRss, liveRss };
}

function stop(child: Child): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null) return resolve();
    child.process.once('exit', () => resolve());
    child.process.kill('SIGTERM');
  });
}

/** Labels a dialect's block when more than one is measured. */
const BLOCK: Readonly<Record<Dialect, string>> = {
  messages: 'Anthropic Messages, POST /v1/messages',
  chat: 'OpenAI Chat Completions, POST /v1/chat/completions',
  responses: 'OpenAI Responses, POST /v1/responses',
};

async function main(): Promise<void> {
  const option = (name: string): string | undefined => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const samples = Number(option('--samples') ?? 400);
  const variant = option('--variant') ?? 'both';
  const dialectOption = option('--dialect') ?? 'messages';
  const dialects = dialectOption === 'all' ? DIALECTS : DIALECTS.filter((d) => d === dialectOption);
  if (dialects.length === 0) throw new Error(`--dialect must be messages, chat, responses or all`);
  const several = dialects.length > 1;
  const nodeArgs = (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const upstream = await start(['--import', 'tsx', ROLES, '--upstream']);
  const upstreamBase = `http://127.0.0.1:${upstream.port}`;
  const kb = (dialect: Dialect): string => (conversation(0, dialect).length / 1024).toFixed(0);
  console.log(
    several
      ? `request bodies: ${dialects.map((d) => `${d} ${kb(d)} KB`).join(', ')}, 40 tool results each`
      : `request body: ${kb(dialects[0]!)} KB, 40 tool results`,
  );
  // Results by variant, then by dialect.
  const results = new Map<string, Map<Dialect, VariantResult>>();
  /** Measures every dialect, each against its own fresh proxy process started by `launch`. */
  const measureAll = async (name: string, launch: () => Promise<Child>): Promise<void> => {
    const byDialect = new Map<Dialect, VariantResult>();
    results.set(name, byDialect);
    for (const dialect of dialects) {
      if (several) console.log(` ${BLOCK[dialect]}`);
      const proxy = await launch();
      try {
        byDialect.set(dialect, await measure(proxy, upstreamBase, samples, dialect));
      } finally {
        await stop(proxy);
      }
    }
  };
  let bundle: { file: string; folder: string } | null = null;
  const concurrency = option('--concurrency');
  if (concurrency !== undefined) {
    try {
      const levels = concurrency.split(',').map(Number);
      if (levels.some((n) => !Number.isInteger(n) || n < 1))
        throw new Error('--concurrency must be a comma-separated list of positive integers');
      if (variant !== 'tsx') bundle = await bundleProxy();
      const launch = (env: NodeJS.ProcessEnv = {}): Promise<Child> =>
        bundle
          ? start([...nodeArgs, bundle.file, '--proxy', upstreamBase], {
              ...process.env,
              ...env,
              NODE_PATH: coreModules(),
            })
          : start([...nodeArgs, '--import', 'tsx', ROLES, '--proxy', upstreamBase], {
              ...process.env,
              ...env,
            });
      const proxy = await launch();
      // The same proxy with compression in its own thread, for the cold scenario side by side.
      const inThread = await launch({ BENCH_COMPRESS_WORKERS: '0' });
      const pipe = await start(['--import', 'tsx', ROLES, '--pipe', upstreamBase]);
      console.log(
        `idle RSS: with its compress pool ${rssMb(proxy.process.pid!).toFixed(0)} MB, ` +
          `compressing in-thread ${rssMb(inThread.process.pid!).toFixed(0)} MB`,
      );
      console.log(`${variant === 'tsx' ? 'tsx' : 'built'} proxy beside a plain node:http pipe, warm session`);
      const options = {
        upstream: upstreamBase,
        pipePort: pipe.port,
        pipePid: pipe.process.pid!,
        proxyPort: proxy.port,
        proxyPid: proxy.process.pid!,
        concurrency: levels,
      };
      try {
        const warm = await warmUnderConcurrency(options);
        console.log(" compression in the proxy's thread (compressWorkers 0)");
        await coldBesideWarm({ ...options, proxyPort: inThread.port, proxyPid: inThread.process.pid! });
        await stop(inThread);
        console.log(
          ` compression in the proxy's compress pool (${process.env.BENCH_COMPRESS_WORKERS ?? 'default'} workers)`,
        );
        const cold = await coldBesideWarm(options);
        // The same with the store an installed proxy opens by default: one file per original, fsynced.
        console.log(" compression in the proxy's compress pool, originals in the default disk store");
        const onDisk = await launch({ BENCH_STORE: 'disk' });
        let memory: { at100: number; at1000: number };
        try {
          const diskOptions = { ...options, proxyPort: onDisk.port, proxyPid: onDisk.process.pid! };
          await coldBesideWarm(diskOptions);
          await coldBehindModel(diskOptions, MODEL_FIRST_BYTE_MS);
          // Memory: with the store an installed proxy opens (the target's figure), and with the
          // originals in the proxy's own memory, where they are part of its RSS.
          console.log(' memory');
          memory = await liveSessionMemory(diskOptions, 'in the default disk store');
        } finally {
          await stop(onDisk);
        }
        await liveSessionMemory(options, 'in a memory store');
        const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
        const at32 = warm.find((r) => r.clients === 32);
        console.log(
          'targets ' +
            (at32
              ? `32 clients: throughput ≥ 0.8× pipe ${met(at32.throughputRatio >= 0.8)} (${at32.throughputRatio.toFixed(2)}×), ` +
                `added p50 ≤ 2× pipe ${met(at32.p50Ratio <= 2)} (${at32.p50Ratio.toFixed(2)}×); `
              : '') +
            `cold 200 KB added p50 ≤ 30 ms ${met(cold.coldAddedP50 <= 30)}, ` +
            `≤ 2 ms to warm streams ${met(cold.warmAddedByCold <= 2)}; ` +
            `RSS (default store) ≤ 150 MB at 100 sessions ${met(memory.at100 <= 150)}, ` +
            `≤ 400 MB at 1,000 ${met(memory.at1000 <= 400)}`,
        );
      } finally {
        await stop(pipe);
        await stop(inThread);
        await stop(proxy);
      }
    } finally {
      await stop(upstream);
      agent.destroy();
      if (bundle) rmSync(bundle.folder, { recursive: true, force: true });
    }
    return;
  }
  try {
    if (variant !== 'tsx') {
      const started = performance.now();
      bundle = await bundleProxy();
      const file = bundle.file;
      console.log(
        `built: the proxy bundled in ${((performance.now() - started) / 1000).toFixed(1)} s, run on plain node`,
      );
      await measureAll('built', () =>
        start([...nodeArgs, file, '--proxy', upstreamBase], { ...process.env, NODE_PATH: coreModules() }),
      );
    }
    if (variant !== 'built') {
      console.log('tsx: the TypeScript sources under tsx (development)');
      await measureAll('tsx', () => start([...nodeArgs, '--import', 'tsx', ROLES, '--proxy', upstreamBase]));
    }
  } finally {
    await stop(upstream);
    agent.destroy();
    if (bundle) rmSync(bundle.folder, { recursive: true, force: true });
  }

  const name = results.has('built') ? 'built' : 'tsx';
  const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  let allMet = true;
  for (const [dialect, checked] of results.get(name)!) {
    const label = several ? `${name}, ${dialect}` : name;
    console.log(
      `targets (${label}) warm overhead p50 ≤ 1 ms: ${met(checked.warm.p50 <= 1)}, p99 ≤ 5 ms: ${met(checked.warm.p99 <= 5)}, ` +
        `RSS ≤ 200 MB with 100 live sessions: ${met(checked.liveRss <= 200)}`,
    );
    allMet &&= checked.warm.p50 <= 1 && checked.warm.p99 <= 5 && checked.liveRss <= 200;
  }
  process.exitCode = allMet ? 0 : 1;
}

await main();
