import Anthropic from '@anthropic-ai/sdk';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import {
  anthropicStream,
  chatStream,
  FAULT_HEADER,
  type Fault,
  FaultUpstream,
  OK_TEXT,
} from './fault-upstream.js';

// Faults the upstream injects, and what the official SDKs make of them directly and through the proxy.
// "Faithful" means the SDK's outcome through the proxy is the one it has talking to the upstream
// directly: the same status, error body and retry-after for HTTP errors, a raised error for a stream that
// breaks, the same text for a slow success. The proxy never turns an error into a success.

const ANTHROPIC_MODEL = 'claude-sonnet-4-6';
const OPENAI_MODEL = 'gpt-4o';

const FAULTS: Readonly<Record<string, Fault>> = {
  'status-500': {
    kind: 'status',
    status: 500,
    body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
  },
  'status-529': {
    kind: 'status',
    status: 529,
    body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  },
  'status-503-html': {
    kind: 'status',
    status: 503,
    body: '<html><body>503 Service Unavailable</body></html>',
  },
  'status-429': {
    kind: 'status',
    status: 429,
    body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests exceeded' } },
    headers: { 'retry-after': '17', 'anthropic-ratelimit-requests-remaining': '0' },
  },
  slow: { kind: 'slow', headersMs: 300, gapMs: 20 },
  reset: { kind: 'reset', afterEvents: 3 },
  'anthropic-bad-json': {
    kind: 'sse',
    chunks: anthropicStream(ANTHROPIC_MODEL).map((event, i) => (i === 4 ? event.replace('}}', '},') : event)),
  },
  'anthropic-no-stop': { kind: 'sse', chunks: anthropicStream(ANTHROPIC_MODEL).slice(0, -1) },
  'anthropic-garbage': {
    kind: 'sse',
    chunks: (anthropicStream(ANTHROPIC_MODEL) as (string | Buffer)[]).toSpliced(
      3,
      0,
      Buffer.from([0xff, 0xfe, 0x0a]),
      'not an event\n\n',
    ),
  },
  'openai-bad-json': {
    kind: 'sse',
    chunks: chatStream(OPENAI_MODEL).map((chunk, i) => (i === 2 ? chunk.replace('}]', '},]') : chunk)),
  },
  'openai-no-done': { kind: 'sse', chunks: chatStream(OPENAI_MODEL).slice(0, 3) },
  'openai-garbage': {
    kind: 'sse',
    chunks: (chatStream(OPENAI_MODEL) as (string | Buffer)[]).toSpliced(
      2,
      0,
      Buffer.from([0xff, 0xfe, 0x0a]),
      'not an event\n\n',
    ),
  },
};

/** What an SDK call came to: a value, or an error with what the SDK saw of it. */
type Outcome =
  | { ok: true; text: string }
  | { ok: false; error: string; status?: number; body?: unknown; retryAfter?: string | null };

async function outcomeOf(call: () => Promise<string>): Promise<Outcome> {
  try {
    return { ok: true, text: await call() };
  } catch (error) {
    if (error instanceof Anthropic.APIError || error instanceof OpenAI.APIError) {
      const {
        status,
        error: body,
        headers,
      } = error as { status?: number; error?: unknown; headers?: Headers };
      return {
        ok: false,
        error: error.constructor.name,
        ...(status !== undefined && { status, body, retryAfter: headers?.get('retry-after') ?? null }),
      };
    }
    return { ok: false, error: error instanceof Error ? error.constructor.name : String(error) };
  }
}

type Mode = 'anthropic-json' | 'anthropic-stream' | 'openai-json' | 'openai-stream';

/** One SDK request of `mode` against `base`, meeting fault `fault`. */
function call(base: string, mode: Mode, fault: string, options: { timeout?: number } = {}): Promise<Outcome> {
  const headers = { [FAULT_HEADER]: fault };
  const messages = [{ role: 'user' as const, content: 'Is the build green?' }];
  if (mode.startsWith('anthropic')) {
    const client = new Anthropic({ apiKey: 'sk-ant-fault-test', baseURL: base, maxRetries: 0, ...options });
    const body = { model: ANTHROPIC_MODEL, max_tokens: 64, messages };
    return outcomeOf(async () => {
      const message =
        mode === 'anthropic-json'
          ? await client.messages.create(body, { headers })
          : await client.messages.stream(body, { headers }).finalMessage();
      return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    });
  }
  const client = new OpenAI({ apiKey: 'sk-fault-test', baseURL: `${base}/v1`, maxRetries: 0, ...options });
  return outcomeOf(async () => {
    if (mode === 'openai-json') {
      const completion = await client.chat.completions.create({ model: OPENAI_MODEL, messages }, { headers });
      return completion.choices[0]?.message.content ?? '';
    }
    const stream = await client.chat.completions.create(
      { model: OPENAI_MODEL, messages, stream: true },
      { headers },
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    return text;
  });
}

const MODES: readonly Mode[] = ['anthropic-json', 'anthropic-stream', 'openai-json', 'openai-stream'];
const figures: string[][] = [];

describe('faults injected upstream, relayed to the official SDKs', { timeout: 30_000 }, () => {
  let upstream: FaultUpstream;
  let proxy: RunningProxy;
  const logs: string[] = [];

  beforeAll(async () => {
    upstream = await new FaultUpstream().start();
    for (const [name, fault] of Object.entries(FAULTS)) upstream.define(name, fault);
    upstream.define('hang', { kind: 'hang' });
    upstream.define('429-once', {
      kind: 'status',
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      headers: { 'retry-after': '0' },
      times: 1,
    });
    proxy = await startProxy({
      port: 0,
      learn: false, // nothing learned from or into the real Distil home
      anthropicUpstream: upstream.url,
      openaiUpstream: upstream.url,
      store: new MemoryRestoreStore(),
      keepModel: new SalienceKeepModel(),
      log: (line) => logs.push(line),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    if (process.env['DISTIL_RELIABILITY_REPORT']) {
      const width = Math.max(...figures.map((r) => r[0]!.length));
      console.log(figures.map((r) => `${r[0]!.padEnd(width)}  ${r[1]}  →  ${r[2]}`).join('\n'));
    }
  });

  const statusFaults = ['status-500', 'status-529', 'status-503-html', 'status-429'];
  for (const fault of statusFaults) {
    for (const mode of MODES) {
      it(`${fault} (${mode}): same status, body and retry-after as direct; never a success`, async () => {
        const direct = await call(upstream.url, mode, fault);
        const proxied = await call(proxy.url, mode, fault);
        expect(direct.ok).toBe(false);
        expect(proxied).toEqual(direct);
        if (fault === 'status-429') expect(proxied).toMatchObject({ status: 429, retryAfter: '17' });
        figures.push([`${fault} ${mode}`, describeOutcome(direct), describeOutcome(proxied)]);
      });
    }
  }

  for (const mode of MODES) {
    it(`slow upstream (${mode}): the same text as direct`, async () => {
      const direct = await call(upstream.url, mode, 'slow');
      const proxied = await call(proxy.url, mode, 'slow');
      expect(direct).toEqual({ ok: true, text: OK_TEXT });
      expect(proxied).toEqual(direct);
      figures.push([`slow ${mode}`, describeOutcome(direct), describeOutcome(proxied)]);
    });

    it(`reset mid-reply (${mode}): the SDK raises an error, as it does direct`, async () => {
      const direct = await call(upstream.url, mode, 'reset');
      const proxied = await call(proxy.url, mode, 'reset');
      expect(direct.ok).toBe(false);
      expect(proxied.ok).toBe(false);
      figures.push([`reset ${mode}`, describeOutcome(direct), describeOutcome(proxied)]);
    });

    it(`an upstream that never answers (${mode}): the client times out, the proxy lets go upstream`, async () => {
      const before = upstream.received.length;
      const proxied = await call(proxy.url, mode, 'hang', { timeout: 400 });
      expect(proxied).toMatchObject({ ok: false, error: expect.stringMatching(/Timeout/) });
      // the client went away: the proxy aborts its upstream request instead of holding it open
      await vi.waitFor(() => expect(upstream.received[before]?.aborted).toBe(true), { timeout: 10_000 });
      figures.push([`hang ${mode}`, 'client timeout', `${describeOutcome(proxied)}, upstream aborted`]);
    });
  }

  it('429 with retry-after: 0 and SDK retries on: the SDK retries through the proxy and succeeds', async () => {
    const before = upstream.received.length;
    const client = new Anthropic({ apiKey: 'sk-ant-fault-test', baseURL: proxy.url, maxRetries: 2 });
    const message = await client.messages.create(
      { model: ANTHROPIC_MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'again' }] },
      { headers: { [FAULT_HEADER]: '429-once' } },
    );
    expect(message.content).toMatchObject([{ type: 'text', text: OK_TEXT }]);
    // exactly the SDK's two attempts reached the upstream: the proxy adds no retries of its own
    expect(upstream.received.length - before).toBe(2);
  });

  // `same`: the SDK's outcome through the proxy equals its outcome direct. `fails`: the stream was cut
  // short without its terminator; the OpenAI SDK ends such a stream quietly and returns the truncated text
  // as if it were complete, while the proxy reports the cut as an error event — a truncation never
  // reaches the client as a success.
  const sseFaults: [string, Mode, 'same' | 'fails'][] = [
    ['anthropic-bad-json', 'anthropic-stream', 'same'],
    ['anthropic-no-stop', 'anthropic-stream', 'same'],
    ['anthropic-garbage', 'anthropic-stream', 'same'],
    ['openai-bad-json', 'openai-stream', 'same'],
    ['openai-no-done', 'openai-stream', 'fails'],
    ['openai-garbage', 'openai-stream', 'same'],
  ];
  for (const [fault, mode, expected] of sseFaults) {
    it(`malformed SSE ${fault}: ${expected === 'same' ? 'the SDK reaches its direct outcome' : 'the SDK raises'}`, async () => {
      const direct = await call(upstream.url, mode, fault);
      const proxied = await call(proxy.url, mode, fault);
      figures.push([`${fault} ${mode}`, describeOutcome(direct), describeOutcome(proxied)]);
      if (expected === 'fails') expect(proxied.ok).toBe(false);
      else if (direct.ok) expect(proxied).toEqual(direct);
      else expect(proxied.ok).toBe(false);
    });
  }

  it('stays healthy after every fault, and never logged a credential', async () => {
    expect(await call(proxy.url, 'anthropic-json', 'none')).toEqual({ ok: true, text: OK_TEXT });
    expect(await call(proxy.url, 'openai-stream', 'none')).toEqual({ ok: true, text: OK_TEXT });
    expect(logs.join('\n')).not.toMatch(/sk-ant-fault-test|sk-fault-test/);
  });
});

function describeOutcome(outcome: Outcome): string {
  if (outcome.ok) return `ok (${outcome.text.length} chars)`;
  return outcome.status !== undefined
    ? `${outcome.error} ${outcome.status}${outcome.retryAfter ? ` retry-after=${outcome.retryAfter}` : ''}`
    : outcome.error;
}
