import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, startTestProxy } from './fixtures.js';

// Requests a client may send that the proxy must not turn into its own 500s.

/** Sends raw bytes and reads the whole answer (the proxy closes or answers with a length). */
function rawRequest(proxy: RunningProxy, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (/\r\n\r\n/.test(answer) && /\}$/.test(answer)) socket.end();
    });
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

/** A JSON value nested `depth` levels deep (arrays in objects), built as text so nothing recurses. */
function deepJson(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

let upstream: FakeUpstream;
let proxy: RunningProxy & { logs: string[] };
beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  proxy = await startTestProxy(upstream);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

describe('an absolute-form request target', () => {
  it('gets a 400 that says what is wrong, and nothing goes upstream', async () => {
    const answer = await rawRequest(
      proxy,
      'GET http://evil.example/x HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer).toContain('invalid_request_error');
    expect(answer).toContain('must be a path');
    expect(answer).not.toMatch(/Invalid URL/);
    expect(upstream.received).toHaveLength(0);
  });
});

describe('deep but valid JSON (100,000 levels) beside a compressible tool result', () => {
  for (const stream of [false, true]) {
    it(`is forwarded byte for byte (${stream ? 'streamed' : 'plain'})`, async () => {
      const log = JSON.stringify(buildLog(300, 'deep'));
      const body =
        `{"model":"claude-sonnet-4-6","max_tokens":50,"stream":${stream},"messages":[` +
        '{"role":"user","content":"go"},' +
        `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_d","name":"bash","input":${deepJson(100_000)}}]},` +
        `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_d","content":${log}}]}]}`;
      upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
      const response = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
        body,
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).not.toMatch(/call stack/i);
      expect(response.headers.get('x-distil-bypass')).toBe('deep-json');
      expect(upstream.received).toHaveLength(1);
      expect(upstream.received[0]!.body).toBe(body);
    });
  }
});

describe("a tool result that spells a tokenizer's special token", () => {
  // ML code and tokenizer files print `<|endoftext|>` as plain text; counting it as text, not refusing it
  it('is compressed like any other and the request succeeds', async () => {
    const lines = buildLog(300, 'special').split('\n');
    lines[10] = 'eos_token = "<|endoftext|>"  # appended after every document';
    const log = lines.join('\n');
    const body = JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: log }] },
      ],
    });
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-distil-bypass')).toBeNull();
    expect(Number(response.headers.get('x-distil-saved-tokens'))).toBeGreaterThan(0);
    expect(upstream.received).toHaveLength(1);
    expect(upstream.received[0]!.body.length).toBeLessThan(body.length);
  });
});
