/**
 * The two servers `pnpm bench:proxy` measures, each run as its own process:
 *   --upstream           a fake Anthropic upstream: reads the whole body, answers a short Messages reply;
 *   --proxy <upstream>   the proxy (startProxy, in-memory store, salience rules) pointed at it.
 * Each prints its port on stdout when listening. The proxy also answers SIGUSR2 with one JSON line of
 * its `process.memoryUsage()`, so the bench can say what its RSS is made of. The proxy role is also what
 * the bench bundles to run the proxy as built JavaScript on plain node (see bench/proxy.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';

async function upstream(): Promise<void> {
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
}

async function proxy(upstreamUrl: string): Promise<void> {
  const running = await startProxy({
    port: 0,
    anthropicUpstream: upstreamUrl,
    store: new MemoryRestoreStore({ maxBytes: 2 * 1024 ** 3 }),
    keepModel: new SalienceKeepModel(),
    log: () => {},
  });
  // A clean exit on SIGTERM, so `--cpu-prof` / `--heap-prof` (BENCH_PROXY_NODE_ARGS) write their files.
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
  process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`));
  process.stdout.write(`${running.port}\n`);
}

const role = process.argv[2];
if (role === '--upstream') await upstream();
else if (role === '--proxy' && process.argv[3]) await proxy(process.argv[3]);
else {
  process.stderr.write('usage: proxy-roles (--upstream | --proxy <upstream url>)\n');
  process.exitCode = 2;
}
