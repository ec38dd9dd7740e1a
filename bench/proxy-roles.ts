/**
 * The two servers `pnpm bench:proxy` measures, each run as its own process:
 *   --upstream           a fake upstream: reads the whole body, answers a short non-streaming reply in the
 *                        wire format of the route posted to (Messages, Chat Completions or Responses), at
 *                        once or after the `x-bench-first-byte-ms` a request asks for;
 *   --proxy <upstream>   the proxy (startProxy, in-memory store or with BENCH_STORE=disk the installed
 *                        default, salience rules, its compress pool as installed or
 *                        BENCH_COMPRESS_WORKERS workers) pointed at it;
 *   --pipe <upstream>    a plain node:http relay to it (request piped up, reply piped back): the floor any
 *                        proxy in node pays, measured beside the proxy in the same run.
 * Each prints its port on stdout when listening. The proxy also answers SIGUSR2 with one JSON line of
 * its `process.memoryUsage()`, so the bench can say what its RSS is made of. The proxy role is also what
 * the bench bundles to run the proxy as built JavaScript on plain node (see bench/proxy.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import { MESSAGES_REPLY } from './wire-fixtures.js';

/** A short Anthropic Messages reply. */
const messagesReply = (): string => JSON.stringify(MESSAGES_REPLY);

/** A short Chat Completions reply, as the API writes it (the shape the proxy tests' fake upstream sends). */
function chatReply(): string {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-5.4',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'ok', refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: 1000,
      completion_tokens: 1,
      total_tokens: 1001,
      prompt_tokens_details: { cached_tokens: 0 },
    },
  });
}

/** A short Responses reply: one output message, as the API writes it. */
function responsesReply(): string {
  return JSON.stringify({
    id: 'resp_bench',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'gpt-5.4',
    output: [
      {
        id: 'msg_bench',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'ok', annotations: [] }],
      },
    ],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: 1000,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 1001,
    },
  });
}

/** The reply for each route the bench posts to. */
const REPLIES: Readonly<Record<string, string>> = {
  '/v1/messages': messagesReply(),
  '/v1/chat/completions': chatReply(),
  '/v1/responses': responsesReply(),
};

async function upstream(): Promise<void> {
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      const reply = REPLIES[req.url ?? ''];
      if (reply === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      const answer = (): void => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(reply),
        });
        res.end(reply);
      };
      // `x-bench-first-byte-ms`: answer after that long, as a model reading a long prompt does
      const after = Number(req.headers['x-bench-first-byte-ms'] ?? 0);
      if (after > 0) setTimeout(answer, after);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
}

async function proxy(upstreamUrl: string): Promise<void> {
  // The expand flywheel runs as in an installed proxy (digests counted, its file written in the
  // background), into a home of its own: nothing reaches the real one.
  const home = mkdtempSync(join(tmpdir(), 'distil-bench-proxy-'));
  const workersEnv = process.env['BENCH_COMPRESS_WORKERS'];
  const workers = workersEnv === undefined || workersEnv === '' ? undefined : Number(workersEnv);
  const running = await startProxy({
    port: 0,
    home,
    // BENCH_LEARN=0: the flywheel off, to see what it costs
    learn: process.env['BENCH_LEARN'] !== '0',
    anthropicUpstream: upstreamUrl,
    openaiUpstream: upstreamUrl,
    // BENCH_STORE=disk: the store an installed proxy opens by default (on disk, in its home)
    ...(process.env['BENCH_STORE'] === 'disk'
      ? {}
      : { store: new MemoryRestoreStore({ maxBytes: 2 * 1024 ** 3 }) }),
    // the rules by config, as an installed proxy loads them (a KeepModel object would keep compression
    // in-thread); BENCH_COMPRESS_WORKERS sets the compress pool (0: in-thread; default: the proxy's own)
    config: {
      keepModel: { type: 'salience' },
      ...(workers !== undefined && { proxy: { compressWorkers: workers } }),
    },
    log: (line) => process.stderr.write(`proxy: ${line}\n`),
  });
  // A clean exit on SIGTERM, so `--cpu-prof` / `--heap-prof` (BENCH_PROXY_NODE_ARGS) write their files.
  process.once(
    'SIGTERM',
    () =>
      void running.close().then(() => {
        rmSync(home, { recursive: true, force: true });
        process.exit(0);
      }),
  );
  process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`));
  process.stdout.write(`${running.port}\n`);
}

/** The plain relay: what a dozen lines of node:http add, with keep-alive to the upstream like the proxy. */
function pipe(upstreamUrl: string): void {
  const target = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
  process.once('SIGTERM', () => process.exit(0));
}

const role = process.argv[2];
if (role === '--upstream') await upstream();
else if (role === '--proxy' && process.argv[3]) await proxy(process.argv[3]);
else if (role === '--pipe' && process.argv[3]) pipe(process.argv[3]);
else {
  process.stderr.write('usage: proxy-roles (--upstream | --proxy <upstream url> | --pipe <upstream url>)\n');
  process.exitCode = 2;
}
