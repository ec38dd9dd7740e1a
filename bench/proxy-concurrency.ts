/**
 * The concurrent half of `pnpm bench:proxy --concurrency 1,32,128`: Distil beside a plain node:http pipe
 * (bench/proxy-roles.ts `--pipe`) and the upstream called directly, in the same run, so the ratios hold
 * on a loaded machine even when the absolute figures drift.
 *   per concurrency  c clients, each sending the same warm ~200 KB body back to back, to each target in
 *                    turn (direct, pipe, Distil; two rounds, so all three see the same noise): added p50/p99
 *                    over direct, and requests per second;
 *   cold beside warm a conversation that starts with one new ~200 KB tool result: first alone, for the CPU
 *                    it costs the proxy's event loop and its other threads (Linux: /proc); then sent one at
 *                    a time while warm streams run: its own added p50, and the warm streams' p50 with and
 *                    without it (what compressing a new block costs everybody else);
 *   memory           the proxy's RSS with 100 and with 1,000 live sessions, with the store an installed
 *                    proxy opens (originals on disk) and with the originals in a memory store.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { AUTH, bigToolResult, conversation, ROUTE } from './proxy-dialects.js';

function post(agent: Agent, url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: status ${res.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const ms = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms`.padStart(10);

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * CPU seconds (user + system) of a process's threads, from /proc: its main thread (the event loop) and
 * all the others (compress workers, V8's GC helpers, libuv's pool). Null where /proc is not there.
 */
function threadCpu(pid: number): { main: number; others: number } | null {
  const cpuOf = (stat: string): number => {
    // fields after the command name, which may hold spaces: utime and stime are the 12th and 13th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const cpu = cpuOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      if (Number(tid) === pid) main = cpu;
      else others += cpu;
    }
    return { main, others };
  } catch {
    return null;
  }
}

interface Target {
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Its process, when it is one of ours: its CPU per request is measured too. */
  readonly pid?: number;
}

interface Load {
  readonly latencies: number[];
  readonly seconds: number;
  /** CPU seconds its process spent (all threads), when it has one. */
  readonly cpu?: number;
}

/** `clients` loops posting `body` back to back until `total` requests are answered. */
async function load(target: Target, clients: number, total: number, body: Buffer): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let issued = 0;
  const cpuBefore = target.pid === undefined ? null : threadCpu(target.pid);
  const started = performance.now();
  const loop = async (): Promise<void> => {
    while (issued < total) {
      issued++;
      latencies.push(await post(agent, target.url, body, target.headers));
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const cpuAfter = target.pid === undefined ? null : threadCpu(target.pid);
  if (!cpuBefore || !cpuAfter) return { latencies, seconds };
  const cpu = cpuAfter.main + cpuAfter.others - cpuBefore.main - cpuBefore.others;
  return { latencies, seconds, cpu };
}

export interface ConcurrencyOptions {
  readonly upstream: string;
  readonly pipePort: number;
  /** The pipe's process, for its CPU per request beside the proxy's. */
  readonly pipePid?: number;
  readonly proxyPort: number;
  readonly proxyPid: number;
  readonly concurrency: readonly number[];
}

export interface ConcurrencyResult {
  readonly clients: number;
  readonly throughputRatio: number;
  readonly p50Ratio: number;
  readonly pipeP50: number;
  readonly distilP50: number;
}

export interface ColdResult {
  readonly coldAddedP50: number;
  readonly warmAddedByCold: number;
}

const route = ROUTE.messages;
const auth = AUTH.messages;
/** Requests each target serves, at this many clients, before the warm figures are measured. */
const WARM_UP_REQUESTS = 6000;
const WARM_UP_CLIENTS = 32;

export async function warmUnderConcurrency(options: ConcurrencyOptions): Promise<ConcurrencyResult[]> {
  const body = Buffer.from(conversation(0, 'messages'));
  const targets: Target[] = [
    { name: 'direct', url: `${options.upstream}${route}`, headers: auth },
    {
      name: 'pipe',
      url: `http://127.0.0.1:${options.pipePort}${route}`,
      headers: auth,
      ...(options.pipePid !== undefined && { pid: options.pipePid }),
    },
    {
      name: 'distil',
      url: `http://127.0.0.1:${options.proxyPort}${route}`,
      headers: { ...auth, 'x-distil-session': 'warm' },
      pid: options.proxyPid,
    },
  ];
  // Warm-up: connections, the session learns the conversation, and V8 compiles each side's hot code. A
  // proxy's code is compiled over its first few thousand requests (about 5 s here, traced with
  // --trace-opt: ~600 compilations, each function as it turns hot), the pipe's dozen lines in a few
  // hundred; measured before that, the ratios compared a proxy still compiling with a compiled pipe. A
  // shared proxy runs for hours, so the ratios below compare the steady state, and the warm-up's own
  // figures are printed beside them.
  for (const target of targets) await load(target, 4, 60, body);
  const warm = new Map<string, Load>();
  for (const target of targets)
    warm.set(target.name, await load(target, WARM_UP_CLIENTS, WARM_UP_REQUESTS, body));
  const warmRate = (name: string): number => WARM_UP_REQUESTS / warm.get(name)!.seconds;
  console.log(
    `  warm-up: ${WARM_UP_REQUESTS} requests per target at ${WARM_UP_CLIENTS} clients, while V8 compiles: ` +
      `pipe ${warmRate('pipe').toFixed(0)} req/s, distil ${warmRate('distil').toFixed(0)} req/s ` +
      `(${(warmRate('distil') / warmRate('pipe')).toFixed(2)}×)`,
  );
  const results: ConcurrencyResult[] = [];
  for (const clients of options.concurrency) {
    const total = Math.max(200, clients * 8);
    const merged = new Map<string, Load>(targets.map((t) => [t.name, { latencies: [], seconds: 0 }]));
    for (let round = 0; round < 2; round++)
      for (const target of targets) {
        const run = await load(target, clients, total, body);
        const into = merged.get(target.name)!;
        merged.set(target.name, {
          latencies: into.latencies.concat(run.latencies),
          seconds: into.seconds + run.seconds,
          ...(run.cpu !== undefined && { cpu: (into.cpu ?? 0) + run.cpu }),
        });
      }
    const direct = merged.get('direct')!;
    const rps = (l: Load): number => l.latencies.length / l.seconds;
    const added = (l: Load, q: number): number => quantile(l.latencies, q) - quantile(direct.latencies, q);
    console.log(`  ${clients} client${clients === 1 ? '' : 's'} (${total * 2} requests per target)`);
    for (const target of targets) {
      const l = merged.get(target.name)!;
      console.log(
        `    ${target.name.padEnd(7)} p50 ${quantile(l.latencies, 0.5).toFixed(2).padStart(8)} ms` +
          (target.name === 'direct'
            ? ''.padEnd(44)
            : ` | added p50 ${ms(added(l, 0.5))} p99 ${ms(added(l, 0.99))}`) +
          ` | ${rps(l).toFixed(0).padStart(5)} req/s`,
      );
    }
    const pipe = merged.get('pipe')!;
    const distil = merged.get('distil')!;
    const result: ConcurrencyResult = {
      clients,
      throughputRatio: rps(distil) / rps(pipe),
      p50Ratio: added(distil, 0.5) / Math.max(added(pipe, 0.5), 0.01),
      pipeP50: added(pipe, 0.5),
      distilP50: added(distil, 0.5),
    };
    console.log(
      `    distil/pipe: throughput ${result.throughputRatio.toFixed(2)}×, added p50 ${result.p50Ratio.toFixed(2)}×`,
    );
    // CPU per request from /proc: what the throughput ratio comes to once the machine's other load, which
    // moves every rate here, is taken out (two cores shared with the load generator and the upstream)
    const perRequest = (l: Load): string =>
      l.cpu === undefined ? 'n/a' : `${((l.cpu / l.latencies.length) * 1000).toFixed(3)} ms`;
    if (distil.cpu !== undefined)
      console.log(
        `    CPU per request (all threads): pipe ${perRequest(pipe)}, distil ${perRequest(distil)}`,
      );
    results.push(result);
  }
  return results;
}

/**
 * Warm streams run throughout; first a window without cold requests, then one where conversations that
 * start with a new ~200 KB tool result arrive one at a time. Cold requests go direct first, to have
 * their own baseline.
 */
export async function coldBesideWarm(
  options: ConcurrencyOptions,
  streams = 8,
  colds = 12,
): Promise<ColdResult> {
  const warmBody = Buffer.from(conversation(0, 'messages'));
  const proxyUrl = `http://127.0.0.1:${options.proxyPort}${route}`;
  const directAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const coldAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  // Every body is made before anything is timed: the client shares the cores with the proxy, so a body
  // built during the cold window would be counted as what the cold request adds to the warm streams.
  const coldBodies = Array.from({ length: colds }, (_, i) => Buffer.from(bigToolResult(500 + i)));
  const aloneBodies = Array.from({ length: 24 }, (_, i) => Buffer.from(bigToolResult(900 + i)));
  const direct: number[] = [];
  for (const body of coldBodies)
    direct.push(await post(directAgent, `${options.upstream}${route}`, body, auth));
  const directWarm: number[] = [];
  for (let i = 0; i < 40; i++)
    directWarm.push(await post(directAgent, `${options.upstream}${route}`, warmBody, auth));
  directAgent.destroy();

  // Alone first: what one new result costs the proxy's event loop (which every other stream waits on)
  // and its other threads, in CPU time (clock ticks of 10 ms, averaged over the requests).
  const alone = aloneBodies.length;
  const before = threadCpu(options.proxyPid);
  for (let i = 0; i < alone; i++)
    await post(coldAgent, proxyUrl, aloneBodies[i]!, {
      ...auth,
      'x-distil-session': `alone-${i}`,
    });
  const after = threadCpu(options.proxyPid);
  if (before && after)
    console.log(
      `  a new ~200 KB tool result alone (n=${alone}): CPU per result ${(((after.main - before.main) * 1000) / alone).toFixed(1)} ms ` +
        `on the proxy's event loop, ${(((after.others - before.others) * 1000) / alone).toFixed(1)} ms on its other threads`,
    );

  const warmAgent = new Agent({ keepAlive: true, maxSockets: streams });
  const warmHeaders = { ...auth, 'x-distil-session': 'warm' };
  let phase: 'quiet' | 'cold' | 'done' = 'quiet';
  const quiet: number[] = [];
  const during: number[] = [];
  const stream = async (): Promise<void> => {
    while (phase !== 'done') {
      const at = phase;
      const took = await post(warmAgent, proxyUrl, warmBody, warmHeaders);
      if (at === 'quiet' && phase === 'quiet') quiet.push(took);
      else if (at === 'cold' && phase === 'cold') during.push(took);
    }
  };
  const running = Promise.all(Array.from({ length: streams }, stream));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  phase = 'cold';
  const cold: number[] = [];
  for (let i = 0; i < colds; i++)
    cold.push(
      await post(coldAgent, proxyUrl, coldBodies[i]!, {
        ...auth,
        'x-distil-session': `big-${i}`,
      }),
    );
  phase = 'done';
  await running;
  warmAgent.destroy();
  coldAgent.destroy();
  const baseWarm = quantile(directWarm, 0.5);
  const result: ColdResult = {
    coldAddedP50: quantile(cold, 0.5) - quantile(direct, 0.5),
    warmAddedByCold: quantile(during, 0.5) - quantile(quiet, 0.5),
  };
  console.log(
    `  a new ~200 KB tool result (n=${colds}, one at a time): its own added p50 ${ms(result.coldAddedP50)} ` +
      `(direct p50 ${quantile(direct, 0.5).toFixed(2)} ms)`,
  );
  console.log(
    `  ${streams} warm streams beside it: added p50 without ${ms(quantile(quiet, 0.5) - baseWarm)} (n=${quiet.length}), ` +
      `with ${ms(quantile(during, 0.5) - baseWarm)} (n=${during.length}): the cold one adds ${ms(result.warmAddedByCold)}`,
  );
  return result;
}

/**
 * A new ~200 KB tool result's own added p50 when the upstream answers after `firstByteMs`, as a model
 * does: what the proxy does while the request is upstream (the disk store's fsyncs of the new records)
 * is hidden behind that wait, and the figure is what the agent waits for on top of the model. Direct
 * and proxied requests alternate, one at a time.
 */
export async function coldBehindModel(
  options: ConcurrencyOptions,
  firstByteMs: number,
  colds = 12,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { ...auth, 'x-bench-first-byte-ms': String(firstByteMs) };
  const direct: number[] = [];
  const proxied: number[] = [];
  const bodies = Array.from({ length: colds }, (_, i) => Buffer.from(bigToolResult(1500 + i)));
  for (const [i, body] of bodies.entries()) {
    direct.push(await post(agent, `${options.upstream}${route}`, body, headers));
    proxied.push(
      await post(agent, `http://127.0.0.1:${options.proxyPort}${route}`, body, {
        ...headers,
        'x-distil-session': `behind-model-${i}`,
      }),
    );
  }
  agent.destroy();
  const added = quantile(proxied, 0.5) - quantile(direct, 0.5);
  console.log(
    `  a new ~200 KB tool result, the model answering after ${firstByteMs} ms (n=${colds}): its own added p50 ` +
      `${ms(added)} (direct p50 ${quantile(direct, 0.5).toFixed(2)} ms)`,
  );
  return added;
}

/** The proxy's own count of its live sessions, awake and asleep (`distil_sessions` in /metrics). */
async function liveSessions(port: number): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const count = (state: string): string =>
    new RegExp(`^distil_sessions\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? '?';
  return `${count('awake')} sessions awake, ${count('asleep')} asleep`;
}

/**
 * RSS after 100 and after 1,000 live sessions, each holding its own ~200 KB conversation. `store` names
 * where the proxy keeps the originals behind its folds: in its own memory they are part of its RSS
 * (~40 KB a session here, deflated), on disk they are not.
 */
export async function liveSessionMemory(
  options: ConcurrencyOptions,
  store: string,
): Promise<{ at100: number; at1000: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const url = `http://127.0.0.1:${options.proxyPort}${route}`;
  const fill = async (from: number, to: number): Promise<void> => {
    let next = from;
    const loop = async (): Promise<void> => {
      while (next < to) {
        const i = next++;
        await post(agent, url, Buffer.from(conversation(2000 + i, 'messages')), {
          ...auth,
          'x-distil-session': `live-${i}`,
        });
      }
    };
    await Promise.all([loop(), loop(), loop(), loop()]);
  };
  await fill(0, 100);
  const at100 = rssMb(options.proxyPid);
  await fill(100, 1000);
  const at1000 = rssMb(options.proxyPid);
  console.log(
    `  originals ${store}: RSS with 100 live sessions ${at100.toFixed(0)} MB, with 1,000 ${at1000.toFixed(0)} MB ` +
      `(the proxy's /metrics: ${await liveSessions(options.proxyPort)})`,
  );
  // The same conversations again, one at a time: the most recent ones are awake, the oldest asleep
  // (the proxy keeps 64 awake), and a sleeping one is woken from the texts the request resends.
  const again = async (sessions: readonly number[]): Promise<number> => {
    const times: number[] = [];
    for (const i of sessions) {
      const body = Buffer.from(conversation(2000 + i, 'messages'));
      times.push(await post(agent, url, body, { ...auth, 'x-distil-session': `live-${i}` }));
    }
    return quantile(times, 0.5);
  };
  const recent = Array.from({ length: 30 }, (_, k) => 999 - k);
  await again(recent);
  const awake = await again(recent);
  const asleep = await again(Array.from({ length: 30 }, (_, k) => k));
  console.log(
    `  a request whose session is awake: p50 ${awake.toFixed(2)} ms; asleep (woken by it): p50 ${asleep.toFixed(2)} ms`,
  );
  agent.destroy();
  return { at100, at1000 };
}
