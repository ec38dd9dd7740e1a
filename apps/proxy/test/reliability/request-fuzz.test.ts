import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { FaultUpstream } from './fault-upstream.js';

// Malformed, truncated and oversized request bodies against the provider endpoints. The proxy must never
// crash and never answer with an error of its own making other than a clear 413: whatever it cannot read
// goes upstream byte for byte (a faithful pass-through), whatever it can read is forwarded.

const LIMIT = 64 * 1024;
const ENDPOINTS = ['/v1/messages', '/v1/messages/count_tokens', '/v1/chat/completions', '/v1/responses'];

/** A log long enough to be folded, so parseable bodies also exercise compression. */
const LOG = `${Array.from({ length: 120 }, (_, i) => (i === 60 ? 'ERROR boom at step 60' : `[INFO] step ${i} ok`)).join('\n')}\n`;

function validBody(endpoint: string, toolText: string, stream: boolean): Record<string, unknown> {
  if (endpoint.startsWith('/v1/messages')) {
    return {
      model: 'claude-sonnet-4-5',
      max_tokens: 32,
      ...(stream && { stream: true }),
      messages: [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: toolText }] },
      ],
    };
  }
  if (endpoint === '/v1/chat/completions') {
    return {
      model: 'gpt-4o',
      ...(stream && { stream: true }),
      messages: [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: toolText },
      ],
    };
  }
  return {
    model: 'gpt-5',
    ...(stream && { stream: true }),
    input: [
      { role: 'user', content: 'fix it' },
      { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: toolText },
    ],
  };
}

/** Replaces the value at a random path of a JSON value (wrong types, nulls, nesting where none belongs). */
function mutate(value: unknown, path: readonly number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  if (entries.length === 0) return replacement;
  const [key, child] = entries[path[0]! % entries.length]!;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as unknown as Record<
    string | number,
    unknown
  >;
  copy[key] = mutate(child, path.slice(1), replacement);
  return copy;
}

const endpoint = fc.constantFrom(...ENDPOINTS);
const toolText = fc.oneof(
  fc.constant(LOG),
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.constant(`${LOG}<< +3 lines, handle=dh_0123456789ab >>\n`),
  fc.constant(`${LOG}\uD800 lone surrogate\n`),
);
/** A body and whether it is valid JSON at all. */
const body = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
  fc.jsonValue({ maxDepth: 4 }).map((json) => Buffer.from(JSON.stringify(json) ?? 'null')),
  fc.tuple(endpoint, toolText, fc.boolean(), fc.nat()).map(([e, t, s, cut]) => {
    const text = JSON.stringify(validBody(e, t, s));
    return Buffer.from(text.slice(0, cut % text.length));
  }),
  fc
    .tuple(
      endpoint,
      toolText,
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([e, t, s, path, replacement]) =>
      Buffer.from(JSON.stringify(mutate(validBody(e, t, s), path, replacement))),
    ),
  fc
    .tuple(endpoint, toolText, fc.boolean())
    .map(([e, t, s]) => Buffer.from(JSON.stringify(validBody(e, t, s)))),
  fc.nat(20_000).map((depth) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
);

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

describe('malformed, truncated and oversized request bodies', { timeout: 30_000 }, () => {
  let upstream: FaultUpstream;
  let proxy: RunningProxy;
  const agent = new Agent({ connections: 4 });
  const logs: string[] = [];

  beforeAll(async () => {
    upstream = await new FaultUpstream().start();
    proxy = await startProxy({
      port: 0,
      learn: false, // nothing learned from or into the real Distil home
      anthropicUpstream: upstream.url,
      openaiUpstream: upstream.url,
      store: new MemoryRestoreStore(),
      keepModel: new SalienceKeepModel(),
      config: { proxy: { maxBodyBytes: LIMIT } },
      log: (line) => logs.push(line),
    });
  });
  afterAll(async () => {
    await agent.close();
    await proxy.close();
    await upstream.close();
  });

  async function post(path: string, payload: Buffer | Readable, headers: Record<string, string> = {}) {
    const response = await request(`${proxy.url}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-fuzz', ...headers },
      body: payload,
    });
    const text = await response.body.text();
    return { status: response.statusCode, text };
  }

  it('answers every generated body: forwarded (byte for byte when unreadable), never a proxy error', async () => {
    let unreadable = 0;
    await fc.assert(
      fc.asyncProperty(endpoint, body, async (path, bytes) => {
        const before = upstream.received.length;
        const { status, text } = await post(path, bytes);
        expect(status, text.slice(0, 300)).toBe(200);
        const seen = upstream.received.slice(before);
        expect(seen.length).toBeGreaterThanOrEqual(1);
        if (!isJson(bytes) || bytes.length === 0) {
          // a body the proxy cannot read goes upstream exactly as it came
          unreadable++;
          expect(seen).toHaveLength(1);
          expect(seen[0]!.bytes.equals(bytes)).toBe(true);
        }
      }),
      { numRuns: 1500 },
    );
    expect(unreadable).toBeGreaterThan(100);
    expect(logs.filter((line) => !/upstream/.test(line))).toEqual([]);
  }, 120_000);

  it('refuses bodies over the limit with a clear 413, declared or chunked, and takes one at the limit', async () => {
    const padded = (size: number): Buffer => {
      const base = JSON.stringify(validBody('/v1/messages', '', false));
      const text = JSON.stringify({ ...JSON.parse(base), metadata: { pad: '' } });
      return Buffer.from(text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`));
    };
    expect(padded(LIMIT)).toHaveLength(LIMIT);
    expect((await post('/v1/messages', padded(LIMIT))).status).toBe(200);
    for (const path of ENDPOINTS) {
      const over = await post(path, padded(LIMIT + 1));
      expect(over.status).toBe(413);
      expect(over.text).toMatch(/request_too_large|maxBodyBytes/);
      // chunked: no Content-Length to refuse up front, so the limit is enforced while reading
      const chunks = [padded(LIMIT + 1).subarray(0, 40_000), padded(LIMIT + 1).subarray(40_000)];
      const chunked = await post(path, Readable.from(chunks));
      expect(chunked.status).toBe(413);
    }
    // an unknown endpoint streams through, with the same limit
    expect((await post('/v1/embeddings', padded(LIMIT + 1))).status).toBe(413);
  });

  it('survives bodies cut off mid-transfer and clients that vanish, then serves the next request', async () => {
    const { port } = new URL(proxy.url);
    const full = Buffer.from(JSON.stringify(validBody('/v1/messages', LOG, true)));
    for (const cut of [0, 1, 100, full.length >> 1, full.length - 1]) {
      for (const ending of ['end', 'destroy'] as const) {
        await new Promise<void>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(
              `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
                `content-length: ${full.length}\r\n\r\n`,
            );
            socket.write(full.subarray(0, cut));
            if (ending === 'end') socket.end();
            else setImmediate(() => socket.destroy());
          });
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.resume();
        });
      }
    }
    // garbage that is not HTTP at all
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('\u0000\u00ff NOT HTTP\r\n\r\n'));
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.resume();
    });
    const after = await post(
      '/v1/messages',
      Buffer.from(JSON.stringify(validBody('/v1/messages', LOG, false))),
    );
    expect(after.status).toBe(200);
    const health = await request(`${proxy.url}/distil/health`, { dispatcher: agent });
    expect(health.statusCode).toBe(200);
    await health.body.text();
  });
});
