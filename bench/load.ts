/**
 * `pnpm bench:load` — 200 concurrent streaming requests through the proxy, beside the same requests sent
 * straight to the upstream in the same run.
 *
 * Three processes: a stand-in upstream speaking the Anthropic and OpenAI streaming formats (the fault
 * upstream of the reliability tests, with no fault), the proxy (startProxy, in-memory store, salience
 * rules) and this client (undici, one connection per stream). Each wave sends 200 streams at once, half
 * Anthropic Messages, half OpenAI Chat Completions, each its own conversation with a ~20 KB tool result
 * that the proxy compresses; waves alternate direct and proxied so both see the same machine noise.
 * Each proxied wave is sent twice: as new conversations (every tool result compressed now) and again with
 * the sessions already holding them (an agent's next turn: every block known, nothing recompressed).
 * Every proxied stream is compared byte for byte with the direct stream of the same request.
 * Figures: errors, byte mismatches, wave time and streams/s, time to headers and to the last byte (p50,
 * p99), and the proxy's resident memory (before, peak while streaming, after).
 * `--waves N` (default 5), `--concurrency N` (default 200).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import { formatTable } from '../apps/cli/src/table.js';
import { FaultUpstream } from '../apps/proxy/test/reliability/fault-upstream.js';
import {
  errorsIn,
  fireWave,
  loadAgent,
  loadRequests,
  mismatches,
  percentile,
  type StreamResult,
} from '../apps/proxy/test/reliability/load-run.js';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} expects a positive integer`);
  return value;
}

/** Starts this script in another process in `role`; resolves with the port it listens on. */
function child(role: string, ...args: string[]): Promise<{ process: ChildProcess; port: number }> {
  const script = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ['--import', 'tsx', script, role, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.once('data', (data: Buffer) =>
      resolve({ process: proc, port: Number(data.toString().trim()) }),
    );
    proc.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/** Resident memory of a process in MB (Linux /proc); NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

function summary(results: readonly StreamResult[], waveMs: readonly number[], concurrency: number): string[] {
  const wave = percentile(waveMs, 50);
  return [
    String(errorsIn(results)),
    ms(wave),
    `${((concurrency / wave) * 1000).toFixed(0)}/s`,
    ms(
      percentile(
        results.map((r) => r.headersMs),
        50,
      ),
    ),
    ms(
      percentile(
        results.map((r) => r.headersMs),
        99,
      ),
    ),
    ms(
      percentile(
        results.map((r) => r.totalMs),
        50,
      ),
    ),
    ms(
      percentile(
        results.map((r) => r.totalMs),
        99,
      ),
    ),
  ];
}

async function main(): Promise<void> {
  const waves = flag('waves', 5);
  const concurrency = flag('concurrency', 200);
  const upstream = await child('--upstream');
  const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
  const proxy = await child('--proxy', upstreamUrl);
  const proxyUrl = `http://127.0.0.1:${proxy.port}`;
  const agent = loadAgent(concurrency);
  try {
    const rssBefore = rssMb(proxy.process.pid!);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(proxy.process.pid!));
    }, 50);
    // one warm-up wave each way (connections, JIT), not counted
    const warm = loadRequests(concurrency, 'sk-bench');
    await fireWave(upstreamUrl, warm, agent);
    await fireWave(proxyUrl, warm, agent);
    const direct: StreamResult[] = [];
    const proxied: StreamResult[] = [];
    const warmed: StreamResult[] = [];
    const directWaves: number[] = [];
    const proxiedWaves: number[] = [];
    const warmWaves: number[] = [];
    let mismatched = 0;
    for (let w = 0; w < waves; w++) {
      const requests = loadRequests(concurrency, 'sk-bench').map((r) => ({
        ...r,
        body: r.body.replace(/fix job (\d+)/, `fix job $1 wave ${w}`),
      }));
      let started = performance.now();
      const d = await fireWave(upstreamUrl, requests, agent);
      directWaves.push(performance.now() - started);
      started = performance.now();
      const p = await fireWave(proxyUrl, requests, agent);
      proxiedWaves.push(performance.now() - started);
      // the same conversations again: the proxy's sessions already hold every block (an agent's next turn)
      started = performance.now();
      const again = await fireWave(proxyUrl, requests, agent);
      warmWaves.push(performance.now() - started);
      mismatched += mismatches(d, p) + mismatches(d, again);
      direct.push(...d);
      proxied.push(...p);
      warmed.push(...again);
    }
    clearInterval(sampler);
    const rssAfter = rssMb(proxy.process.pid!);
    const header = [
      'path',
      'errors',
      'wave p50',
      'streams/s',
      'headers p50',
      'headers p99',
      'last byte p50',
      'last byte p99',
    ];
    console.log(
      `\n${waves} waves × ${concurrency} concurrent streams (half Anthropic, half OpenAI), loopback, in one run:\n`,
    );
    console.log(
      formatTable(header, [
        ['direct', ...summary(direct, directWaves, concurrency)],
        ['proxy, new conversations', ...summary(proxied, proxiedWaves, concurrency)],
        ['proxy, sessions known', ...summary(warmed, warmWaves, concurrency)],
      ]),
    );
    const total = proxied.length + warmed.length;
    console.log(`proxied streams byte-identical to direct: ${total - mismatched}/${total}`);
    console.log(
      `proxy resident memory: ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB peak, ` +
        `${rssAfter.toFixed(0)} MB after (${waves + 1} waves of ${concurrency} new sessions each)`,
    );
    if (errorsIn(proxied) + errorsIn(warmed) > 0 || mismatched > 0) process.exitCode = 1;
  } finally {
    await agent.close();
    upstream.process.kill();
    proxy.process.kill();
  }
}

async function serveUpstream(): Promise<void> {
  const upstream = await new FaultUpstream().start();
  process.stdout.write(`${new URL(upstream.url).port}\n`);
}

async function serveProxy(upstreamUrl: string): Promise<void> {
  const proxy = await startProxy({
    port: 0,
    // nothing here expands, and nothing may reach the real home (bench:proxy measures the flywheel's cost)
    learn: false,
    anthropicUpstream: upstreamUrl,
    openaiUpstream: upstreamUrl,
    store: new MemoryRestoreStore(),
    keepModel: new SalienceKeepModel(),
    log: (line) => process.stderr.write(`proxy: ${line}\n`),
  });
  process.stdout.write(`${proxy.port}\n`);
}

const role = process.argv[2];
if (role === '--upstream') await serveUpstream();
else if (role === '--proxy') await serveProxy(process.argv[3]!);
else await main();
