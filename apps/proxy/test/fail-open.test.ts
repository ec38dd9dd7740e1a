import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SalienceKeepModel } from '@distil/codec';
import type { KeepModel } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type RedisTestServer,
  redisServerAvailable,
  startRedisTestServer,
} from '../../../packages/core/src/store/redis-test-server.js';
import { type RunningProxy, startProxy } from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

// Fail open: whatever Distil's own parts do, the agent's request reaches the upstream and the agent gets
// the upstream's answer, told by `x-distil-bypass` that Distil stood aside. Every failure is real: a
// redis-server killed, a store folder made read-only, a store too small, a keep model that throws.

const headers = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

function messages(log: string): unknown[] {
  return [
    { role: 'user', content: 'fix the build' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] },
  ];
}

function post(proxy: RunningProxy, log: string, stream = false): Promise<Response> {
  return fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      stream,
      tools: [{ name: 'bash', input_schema: { type: 'object' } }],
      messages: messages(log),
    }),
  });
}

const done = { kind: 'anthropic' as const, content: [{ type: 'text' as const, text: 'fixed' }] };

/** The bypass counter's lines in the proxy's /metrics text. */
async function bypassMetric(proxy: RunningProxy): Promise<string> {
  const text = await (await fetch(`${proxy.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('distil_bypass_total{'))
    .join('\n');
}

/** Checks a response is the fake upstream's answer, with no trace of the failure inside Distil. */
async function expectUpstreamAnswer(response: Response, reason: string, stream = false): Promise<void> {
  const text = await response.text();
  expect(response.status).toBe(200);
  expect(response.headers.get('x-distil-bypass')).toBe(reason);
  expect(text).toContain('xed');
  if (stream) expect(text).toContain('message_stop');
  expect(text).not.toMatch(/ioredis|max retries|ECONNREFUSED|EACCES|EPERM|\/tmp\/|maxBytes/i);
}

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await new FakeUpstream().start();
});
afterAll(async () => {
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const HAVE_REDIS = redisServerAvailable();
if (!HAVE_REDIS && process.env['CI'] === 'true')
  throw new Error('redis-server is not installed (CI installs it in .ci/run)');

describe.skipIf(!HAVE_REDIS)('a Redis store killed mid-run', () => {
  let redis: RedisTestServer;
  let proxy: RunningProxy;
  const logs: string[] = [];

  beforeAll(async () => {
    redis = await startRedisTestServer();
    proxy = await startProxy({
      port: 0,
      anthropicUpstream: upstream.url,
      config: { restoreStore: { type: 'redis', url: redis.url } },
      keepModel: new SalienceKeepModel(),
      learn: false, // nothing learned from or into the real Distil home
      log: (line) => logs.push(line),
    });
  }, 20_000);
  afterAll(async () => {
    await proxy?.close();
    await redis?.stop();
  });

  it('answers plain, streamed and expand requests from the upstream once Redis is gone', async () => {
    const before = buildLog(300, 'before');
    upstream.script(done);
    const first = await post(proxy, before);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-distil-bypass')).toBeNull();
    await first.text();
    const handle = firstHandle(upstream.received[0]!.body);

    await redis.stop();

    // A new tool output needs the store: the request goes upstream as the client sent it.
    const after = buildLog(300, 'after');
    upstream.script(done);
    await expectUpstreamAnswer(await post(proxy, after), 'store');
    const sent = upstream.received.at(-1)!.body;
    expect(sent).toContain(JSON.stringify(after).slice(1, -1));

    upstream.script(done);
    await expectUpstreamAnswer(await post(proxy, buildLog(300, 'streamed'), true), 'store', true);

    // The model expands a fold it saw before Redis died: it hears the lines cannot be read, and goes on.
    upstream.script(
      {
        kind: 'anthropic',
        content: [{ type: 'tool_use', id: 'toolu_e', name: 'distil_expand', input: { handle } }],
      },
      done,
    );
    const expanded = await post(proxy, before, true);
    const text = await expanded.text();
    expect(expanded.status).toBe(200);
    expect(text).toContain('xed');
    expect(text).not.toContain('"type":"error"');
    expect(upstream.received.at(-1)!.body).toContain('cannot be read right now');

    expect(await bypassMetric(proxy)).toMatch(/reason="store"\} [3-9]/);
    expect(logs.join('\n')).toContain('stood aside (store: MaxRetriesPerRequestError): forwarded untouched');
    expect(logs.join('\n')).not.toContain('fix the build');
  }, 15_000);
});

describe('a disk store whose folder turns read-only', () => {
  let home: string;
  let path: string;
  let proxy: RunningProxy;
  // Root ignores permission bits: there the folder is made immutable instead (chattr +i).
  const asRoot = process.getuid?.() === 0;

  const setReadOnly = (readOnly: boolean): void => {
    if (asRoot) {
      const result = spawnSync('chattr', ['-R', readOnly ? '+i' : '-i', path]);
      expect(result.status).toBe(0);
      return;
    }
    const walk = (dir: string): void => {
      chmodSync(dir, readOnly ? 0o500 : 0o700);
      for (const name of readdirSync(dir)) {
        const child = join(dir, name);
        if (statSync(child).isDirectory()) walk(child);
      }
    };
    walk(path);
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'distil-failopen-'));
    path = join(home, 'store');
    proxy = await startProxy({
      port: 0,
      anthropicUpstream: upstream.url,
      // Asked again on every request, so the test sees compression resume at once.
      config: { restoreStore: { type: 'disk', path }, proxy: { storeRetryMs: 0 } },
      keepModel: new SalienceKeepModel(),
      home,
      log: () => {},
    });
  });
  afterEach(() => setReadOnly(false));
  afterAll(async () => {
    await proxy?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('forwards the request untouched, and compresses again once the folder is writable', async () => {
    upstream.script(done);
    await (await post(proxy, buildLog(300, 'warm'))).text();
    setReadOnly(true);
    const log = buildLog(300, 'readonly');
    upstream.script(done);
    await expectUpstreamAnswer(await post(proxy, log), 'store');
    expect(upstream.received.at(-1)!.body).toContain(JSON.stringify(log).slice(1, -1));

    setReadOnly(false);
    upstream.script(done);
    const recovered = await post(proxy, buildLog(300, 'recovered'));
    await recovered.text();
    expect(recovered.headers.get('x-distil-bypass')).toBeNull();
    expect(upstream.received.at(-1)!.body).toMatch(/handle=dh_/);
  });
});

describe('parts that fail for one block', () => {
  it('sends a tool output too large for the store whole (store-full)', async () => {
    const proxy = await startTestProxy(upstream, { store: new MemoryRestoreStore({ maxBytes: 1000 }) });
    try {
      const log = buildLog(300, 'big');
      upstream.script(done);
      await expectUpstreamAnswer(await post(proxy, log), 'store-full');
      expect(upstream.received.at(-1)!.body).toContain(JSON.stringify(log).slice(1, -1));
      expect(await bypassMetric(proxy)).toContain('reason="store-full"} 1');
    } finally {
      await proxy.close();
    }
  });

  it('sends the output whole when the keep model throws, and says so', async () => {
    const broken: KeepModel = {
      id: 'broken',
      scoreLines: () => Promise.reject(new Error('model file /srv/models/keep.onnx is corrupt')),
    };
    const proxy = await startTestProxy(upstream, { keepModel: broken });
    try {
      const log = buildLog(300, 'model');
      upstream.script(done);
      await expectUpstreamAnswer(await post(proxy, log, true), 'keep-model', true);
      expect(upstream.received.at(-1)!.body).toContain(JSON.stringify(log).slice(1, -1));
      expect(proxy.logs.join('\n')).toContain('stood aside (keep-model: Error)');
      expect(proxy.logs.join('\n')).not.toContain('/srv/models');
    } finally {
      await proxy.close();
    }
  });
});
