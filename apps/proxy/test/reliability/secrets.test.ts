import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_HEADER, type RunningProxy, startProxy } from '../../src/index.js';
import { anthropicEvents } from '../provider-wire.js';
import { FAULT_HEADER, FaultUpstream } from './fault-upstream.js';

// Requests carry a sentinel API key through every path the proxy has — JSON and streaming, the expand
// loop, shadow mode, upstream errors, an unreachable upstream, a refused body, a client that goes away,
// a wrong admin token. Afterwards the key must appear in no log line, no file under $DISTIL_HOME (the
// disk store, the shadow ledger) and no admin endpoint (/metrics, /dashboard, /distil/*); it must have
// reached the upstream untouched.

const SENTINEL = 'sk-ant-SENTINEL-7d41c0ffee51-do-not-leak';
const ADMIN = 'reliability-admin-token-0123456789';
/** The sentinel and its usual encodings: a leak in any of them counts. */
const LEAKS = [SENTINEL, Buffer.from(SENTINEL).toString('base64'), Buffer.from(SENTINEL).toString('hex')];

const LOG = `${Array.from({ length: 300 }, (_, i) => (i === 150 ? 'ERROR test_widget failed: expected 3, got 4' : `[INFO] step ${i}: compiled module_${i}.ts`)).join('\n')}\n`;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function leaksIn(text: string): string[] {
  return LEAKS.filter((leak) => text.includes(leak));
}

describe('a sentinel API key leaks nowhere', () => {
  let home: string;
  let upstream: FaultUpstream;
  let proxy: RunningProxy;
  const logs: string[] = [];
  const anthropic = () =>
    new Anthropic({
      apiKey: SENTINEL,
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-distil-session': 's1' },
    });
  const openai = () => new OpenAI({ apiKey: SENTINEL, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  const conversation: Anthropic.MessageParam[] = [
    { role: 'user', content: 'fix the widget test' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: LOG }] },
  ];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'distil-secrets-'));
    upstream = await new FaultUpstream().start();
    proxy = await startProxy({
      port: 0,
      home,
      anthropicUpstream: upstream.url,
      openaiUpstream: upstream.url,
      config: { restoreStore: { type: 'disk' }, proxy: { adminToken: ADMIN, maxBodyBytes: 1024 * 1024 } },
      shadow: { sampleRate: 1 },
      log: (line) => logs.push(line),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('goes upstream untouched on every path, and into nothing the proxy writes or serves', async () => {
    const model = 'claude-sonnet-4-6';
    // JSON, then the same conversation with the model expanding the fold it was shown (expand loop)
    await anthropic().messages.create({ model, max_tokens: 32, messages: conversation });
    const handle = /handle=(dh_[0-9a-f]{12})/.exec(upstream.received.at(-1)!.body)?.[1];
    expect(handle).toBeDefined();
    const expandCall = {
      id: 'msg_x',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'tool_use', id: 'toolu_x', name: 'distil_expand', input: { handle } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    upstream.define('expand-once', { kind: 'status', status: 200, body: expandCall, times: 1 });
    await anthropic().messages.create(
      { model, max_tokens: 32, messages: conversation },
      { headers: { [FAULT_HEADER]: 'expand-once' } },
    );
    // streaming, with an expand answered inside the stream until the loop cap
    upstream.define('expand-stream', {
      kind: 'sse',
      chunks: anthropicEvents(
        {
          kind: 'anthropic',
          content: [{ type: 'tool_use', id: 'toolu_y', name: 'distil_expand', input: { handle } }],
        },
        9,
        { json: { model } },
      ),
    });
    await anthropic()
      .messages.stream(
        { model, max_tokens: 32, messages: conversation },
        { headers: { [FAULT_HEADER]: 'expand-stream' } },
      )
      .finalMessage();
    // OpenAI Chat Completions (Bearer) and Responses, JSON and streaming
    const chat = [
      { role: 'user' as const, content: 'fix it' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function' as const, function: { name: 'bash', arguments: '{}' } },
        ],
      },
      { role: 'tool' as const, tool_call_id: 'call_1', content: LOG },
    ];
    await openai().chat.completions.create({ model: 'gpt-4o', messages: chat });
    for await (const _ of await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: chat,
      stream: true,
    })) {
      // drained
    }
    await openai().responses.create({ model: 'gpt-5', input: 'summarise the log' });
    // an upstream error, a body the proxy cannot read, a body over the limit, a client that goes away
    upstream.define('fail', {
      kind: 'status',
      status: 500,
      body: { type: 'error', error: { type: 'api_error', message: 'boom' } },
    });
    upstream.define('hang', { kind: 'hang' });
    await expect(
      anthropic().messages.create(
        { model, max_tokens: 8, messages: conversation },
        { headers: { [FAULT_HEADER]: 'fail' } },
      ),
    ).rejects.toThrow();
    const headers = {
      'content-type': 'application/json',
      'x-api-key': SENTINEL,
      authorization: `Bearer ${SENTINEL}`,
    };
    expect(
      (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: '{"model":' })).status,
    ).toBe(200);
    const big = JSON.stringify({
      model,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }],
    });
    expect((await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: big })).status).toBe(
      413,
    );
    await expect(
      new Anthropic({ apiKey: SENTINEL, baseURL: proxy.url, maxRetries: 0, timeout: 300 }).messages.create(
        { model, max_tokens: 8, messages: conversation },
        { headers: { [FAULT_HEADER]: 'hang' } },
      ),
    ).rejects.toThrow(/timed out/i);
    // an unreachable upstream, logged by a second proxy on the same home
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lonely = await startProxy({
      port: 0,
      home,
      anthropicUpstream: `http://127.0.0.1:${deadPort}`,
      config: { restoreStore: { type: 'disk' } },
      log: (line) => logs.push(line),
    });
    const unreachable = await fetch(`${lonely.url}/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model, max_tokens: 8, messages: conversation }),
    });
    expect(unreachable.status).toBe(502);
    await lonely.close();
    // a wrong admin token (the sentinel itself) is refused without echoing it
    const refused = await fetch(`${proxy.url}/metrics`, { headers: { [ADMIN_TOKEN_HEADER]: SENTINEL } });
    expect(refused.status).toBe(401);
    expect(leaksIn(await refused.text())).toEqual([]);

    // The key reached the upstream as the client sent it, on every request that got there.
    const providerRequests = upstream.received.filter((r) => r.path.startsWith('/v1/'));
    expect(providerRequests.length).toBeGreaterThan(8);
    for (const r of providerRequests) {
      expect(`${r.headers['x-api-key'] ?? ''} ${r.headers.authorization ?? ''}`).toContain(SENTINEL);
    }

    // Nothing the proxy wrote or serves carries it.
    expect(logs.length).toBeGreaterThan(0);
    expect(leaksIn(logs.join('\n'))).toEqual([]);
    const files = filesUnder(home);
    expect(files.some((f) => f.includes(`${join(home, 'store')}`))).toBe(true);
    expect(files.some((f) => f.startsWith(join(home, 'shadow')))).toBe(true);
    for (const file of files) expect(leaksIn(readFileSync(file).toString('latin1')), file).toEqual([]);
    for (const path of [
      '/metrics',
      '/dashboard',
      '/distil/dashboard.json',
      '/distil/shadow',
      '/distil/health',
      '/distil/savings',
    ]) {
      const response = await fetch(`${proxy.url}${path}`, { headers: { [ADMIN_TOKEN_HEADER]: ADMIN } });
      expect(response.status, path).toBe(200);
      expect(leaksIn(await response.text()), path).toEqual([]);
    }
  }, 60_000);
});
