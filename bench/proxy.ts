/**
 * `pnpm bench:proxy` — what the proxy costs on top of calling the same upstream directly.
 *
 * Three processes: a fake Anthropic upstream, the proxy (startProxy, in-memory store, salience rules),
 * and this client. Each measured request is a ~200 KB Messages body (a 40-turn agent conversation, every
 * tool result a log that folds). Direct and proxied requests are interleaved one by one, so both see the
 * same machine noise; the overhead is proxied minus direct, at p50 and p99. Scenarios:
 *   warm session  — the conversation the session already holds (every block known: the steady state of
 *                   an agent loop, where only the last turn is new);
 *   bypass        — `x-distil-bypass: 1`, the pure relay;
 *   cold session  — a conversation the proxy has never seen (every tool result compressed now).
 * Then 100 live sessions, each holding such a conversation, and the proxy's resident memory.
 * Targets (issue): warm overhead p50 ≤ 1 ms, p99 ≤ 5 ms; RSS ≤ 200 MB with 100 live sessions.
 * `--samples N` sets the interleaved pairs per scenario (default 400).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

function child(args: string[]): Promise<{ process: ChildProcess; port: number }> {
  const script = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.once('data', (data: Buffer) =>
      resolve({ process: proc, port: Number(data.toString().trim()) }),
    );
    proc.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

/** A ~200 KB agent conversation: 40 turns, each tool result an ~5 KB log (distinct per conversation). */
function conversation(seed: number): string {
  const messages: unknown[] = [{ role: 'user', content: `fix the failing job (${seed})` }];
  for (let turn = 0; turn < 40; turn++) {
    const lines: string[] = [];
    for (let i = 0; i < 86; i++) {
      lines.push(
        i === 41
          ? `ERROR worker ${seed}.${turn}: case_${i} failed: expected 200, got 503`
          : `INFO worker ${seed}.${turn} step ${i}: handled request ${(i * 7919 + turn) % 100000} in ${i % 17} ms`,
      );
    }
    const id = `toolu_${seed}_${turn}`;
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'bash', input: { cmd: `run ${turn}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: lines.join('\n') }],
    });
  }
  return JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, messages });
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
          'x-api-key': 'bench',
          'anthropic-version': '2023-06-01',
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

async function interleaved(
  label: string,
  upstreamUrl: string,
  proxyUrl: string,
  samples: number,
  body: (i: number) => string,
  headers: (i: number) => Record<string, string>,
): Promise<{ p50: number; p99: number }> {
  const direct: number[] = [];
  const proxied: number[] = [];
  const reported: number[] = [];
  for (let i = 0; i < samples; i++) {
    const b = body(i);
    direct.push((await send(upstreamUrl, b)).ms);
    const viaProxy = await send(proxyUrl, b, headers(i));
    proxied.push(viaProxy.ms);
    reported.push(viaProxy.overhead);
  }
  const p50 = quantile(proxied, 0.5) - quantile(direct, 0.5);
  const p99 = quantile(proxied, 0.99) - quantile(direct, 0.99);
  console.log(
    `${label.padEnd(14)} direct p50 ${fmt(quantile(direct, 0.5))} p99 ${fmt(quantile(direct, 0.99))} | ` +
      `proxy p50 ${fmt(quantile(proxied, 0.5))} p99 ${fmt(quantile(proxied, 0.99))} | ` +
      `overhead p50 ${fmt(p50)} p99 ${fmt(p99)} | self-reported p50 ${fmt(quantile(reported, 0.5))}  (n=${samples})`,
  );
  return { p50, p99 };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function main(): Promise<void> {
  const upstream = await child(['--upstream']);
  const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1/messages`;
  const proxy = await child(['--proxy', `http://127.0.0.1:${upstream.port}`]);
  const proxyUrl = `http://127.0.0.1:${proxy.port}/v1/messages`;
  try {
    const warmBody = conversation(0);
    console.log(`request body: ${(warmBody.length / 1024).toFixed(0)} KB, 40 tool results`);
    const idleRss = rssMb(proxy.process.pid!);
    // Warm up both paths (JIT, connections) and let the session learn the conversation.
    for (let i = 0; i < 50; i++) {
      await send(upstreamUrl, warmBody);
      await send(proxyUrl, warmBody, { 'x-distil-session': 'warm' });
    }
    const samplesAt = process.argv.indexOf('--samples');
    const samples = samplesAt >= 0 ? Number(process.argv[samplesAt + 1]) : 400;
    const warm = await interleaved(
      'warm session',
      upstreamUrl,
      proxyUrl,
      samples,
      () => warmBody,
      () => ({
        'x-distil-session': 'warm',
      }),
    );
    await interleaved(
      'bypass',
      upstreamUrl,
      proxyUrl,
      samples,
      () => warmBody,
      () => ({ 'x-distil-bypass': '1' }),
    );
    await interleaved(
      'cold session',
      upstreamUrl,
      proxyUrl,
      30,
      (i) => conversation(1000 + i),
      (i) => ({
        'x-distil-session': `cold-${i}`,
      }),
    );

    // 100 live sessions, each holding its own 200 KB conversation (the 30 cold ones above count).
    for (let i = 30; i < 100; i++)
      await send(proxyUrl, conversation(1000 + i), { 'x-distil-session': `cold-${i}` });
    const liveRss = rssMb(proxy.process.pid!);
    console.log(
      `RSS            idle proxy ${idleRss.toFixed(0)} MB | with 100 live sessions ${liveRss.toFixed(0)} MB`,
    );

    const pass = warm.p50 <= 1 && warm.p99 <= 5 && liveRss <= 200;
    console.log(
      `targets        warm overhead p50 ≤ 1 ms: ${warm.p50 <= 1 ? 'met' : 'MISSED'}, p99 ≤ 5 ms: ${warm.p99 <= 5 ? 'met' : 'MISSED'}, ` +
        `RSS ≤ 200 MB: ${liveRss <= 200 ? 'met' : 'MISSED'}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    proxy.process.kill('SIGTERM');
    upstream.process.kill('SIGTERM');
    agent.destroy();
  }
}

const role = process.argv[2];

if (role === '--upstream') {
  // The fake upstream: reads the whole body, answers a short Messages reply.
  const reply = JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 1000,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  });
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else if (role === '--proxy') {
  const { startProxy } = await import('@distil/proxy');
  const { MemoryRestoreStore } = await import('@distil/core');
  const { SalienceKeepModel } = await import('@distil/codec');
  const proxy = await startProxy({
    port: 0,
    anthropicUpstream: process.argv[3]!,
    store: new MemoryRestoreStore({ maxBytes: 2 * 1024 ** 3 }),
    keepModel: new SalienceKeepModel(),
    log: () => {},
  });
  process.stdout.write(`${proxy.port}\n`);
} else {
  await main();
}
