import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../src/index.js';
import { FakeUpstream, type ReceivedRequest, type Reply } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

// A continuation of the expand loop that the upstream refuses (overloaded, rate limited), or that breaks
// off with an error event, reaches a streaming client — whose 200 already went out — as the provider's own
// error type, not an api_error.

const LOG = buildLog(300, 'ci');

let upstream: FakeUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await new FakeUpstream().start();
  proxy = await startTestProxy(upstream);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** A first round that only expands the fold the request shows. */
function expandCall(request: ReceivedRequest): Reply {
  const handle = firstHandle(request.body);
  return {
    kind: 'anthropic',
    content: [{ type: 'tool_use', id: 'toolu_e', name: 'distil_expand', input: { handle } }],
  };
}

async function streamAnthropic(): Promise<string> {
  const response = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      stream: true,
      tools: [{ name: 'bash', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: LOG }] },
      ],
    }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The data of the stream's `error` event. */
function errorEvent(stream: string): { type: string; error: { type: string; message: string } } {
  const match = /event: error\ndata: (.*)\n/.exec(stream);
  if (!match) throw new Error(`no error event in: ${stream.slice(-300)}`);
  return JSON.parse(match[1]!);
}

describe('a refused continuation in a streamed expand loop', () => {
  it('keeps 529 overloaded_error and its retry-after', async () => {
    upstream.script(expandCall, {
      kind: 'status',
      status: 529,
      headers: { 'retry-after': '7' },
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const event = errorEvent(await streamAnthropic());
    expect(upstream.received).toHaveLength(2);
    expect(event.error.type).toBe('overloaded_error');
    expect(event.error.message).toContain('Overloaded');
    expect(event.error.message).toContain('retry-after: 7');
  });

  it('keeps 429 rate_limit_error', async () => {
    upstream.script(expandCall, {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '30' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests exceeded' } },
    });
    const event = errorEvent(await streamAnthropic());
    expect(event.error.type).toBe('rate_limit_error');
    expect(event.error.message).toContain('retry-after: 30');
  });

  it('keeps the type of an error event in the middle of a continuation that had begun streaming', async () => {
    upstream.script(expandCall, {
      kind: 'anthropic',
      content: [{ type: 'text', text: 'The failing test is test_widget_150' }],
      errorAfterEvents: 3,
    });
    const stream = await streamAnthropic();
    const event = errorEvent(stream);
    expect(upstream.received).toHaveLength(2);
    expect(event.error.type).toBe('overloaded_error');
    expect(event.error.message).toBe('Overloaded');
    // one error event, and no clean end the client would take for a success
    expect(stream.match(/event: error/g)).toHaveLength(1);
    expect(stream).not.toContain('message_stop');
  });

  it('names a 529 overloaded even when its body says nothing', async () => {
    upstream.script(expandCall, { kind: 'status', status: 529, body: 'busy' });
    expect(errorEvent(await streamAnthropic()).error.type).toBe('overloaded_error');
  });
});
