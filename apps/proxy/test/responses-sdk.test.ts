import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

const LOG = buildLog(300, 'ci');

function input(): OpenAI.Responses.ResponseInput {
  return [
    { role: 'user', content: 'fix it' },
    { type: 'function_call', call_id: 'call_run', name: 'shell', arguments: '{"cmd":"make"}' },
    { type: 'function_call_output', call_id: 'call_run', output: LOG },
  ];
}

const expandFirstHandle = (text: string) => (request: ReceivedRequest) => ({
  kind: 'responses' as const,
  output: [
    { type: 'message' as const, text },
    {
      type: 'function_call' as const,
      call_id: 'call_x1',
      name: 'distil_expand',
      arguments: JSON.stringify({ handle: firstHandle(request.body) }),
    },
  ],
});

describe('OpenAI SDK (Responses) through the proxy', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  // Each test is its own conversation (its own session), whatever ran before it.
  let testNo = 0;
  beforeEach(() => {
    upstream.reset();
    client = new OpenAI({
      apiKey: 'sk-openai-test-key',
      baseURL: `${proxy.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-distil-session': `test-${++testNo}` },
    });
  });

  it('compresses function_call_output and answers distil_expand itself (non-streaming)', async () => {
    upstream.script(expandFirstHandle('Looking.'), {
      kind: 'responses',
      output: [{ type: 'message', text: 'Line 150 fails.' }],
    });
    const response = await client.responses.create({ model: 'gpt-5', input: input() });
    expect(response.output_text).toBe('Looking.Line 150 fails.');
    expect(response.output.map((item) => item.type)).toEqual(['message', 'message']);
    expect(response.id).toBe(upstream.served[0]);
    expect(response.usage?.input_tokens).toBe(200);
    const first = upstream.received[0]!.json;
    expect(first.input[2].output.length).toBeLessThan(LOG.length / 3);
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual(['distil_expand', 'distil_search']);
    // Stored responses chain: the continuation sends only the distil output.
    const second = upstream.received[1]!.json;
    expect(second.previous_response_id).toBe(upstream.served[0]);
    expect(second.input).toHaveLength(1);
    expect(second.input[0]).toMatchObject({ type: 'function_call_output', call_id: 'call_x1' });
    expect(LOG).toContain(second.input[0].output);

    // The client chains on the id it got; upstream is asked to continue from the last reply instead.
    upstream.script({ kind: 'responses', output: [{ type: 'message', text: 'ok' }] });
    await client.responses.create({ model: 'gpt-5', previous_response_id: response.id, input: 'thanks' });
    expect(upstream.received[2]!.json.previous_response_id).toBe(upstream.served[1]);
  });

  it('streams the loop as one response with consistent output indices', async () => {
    upstream.script(expandFirstHandle('Looking. '), {
      kind: 'responses',
      output: [{ type: 'message', text: 'Found it.' }],
    });
    const stream = client.responses.stream({ model: 'gpt-5', input: input(), store: false });
    const deltas: string[] = [];
    const indices: number[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    stream.on('response.output_item.added', (event) => indices.push(event.output_index));
    const response = await stream.finalResponse();
    expect(deltas.join('')).toBe('Looking. Found it.');
    expect(indices).toEqual([0, 1]);
    expect(response.output_text).toBe('Looking. Found it.');
    expect(response.id).toBe(upstream.served[0]);
    expect(JSON.stringify(response.output)).not.toContain('distil');
    // Without storage the continuation re-sends the whole history.
    const second = upstream.received[1]!.json;
    expect(second.previous_response_id).toBeUndefined();
    expect(second.input.map((item: { type?: string }) => item.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
      'function_call',
      'function_call_output',
    ]);
  });

  it('gives the client its own calls; the distil outputs follow with its next request', async () => {
    upstream.script((request) => ({
      kind: 'responses',
      output: [
        {
          type: 'function_call',
          call_id: 'call_d1',
          name: 'distil_expand',
          arguments: JSON.stringify({ handle: firstHandle(request.body) }),
        },
        { type: 'function_call', call_id: 'call_own', name: 'shell', arguments: '{"cmd":"cat widget.ts"}' },
      ],
    }));
    const stream = client.responses.stream({ model: 'gpt-5', input: input() });
    const response = await stream.finalResponse();
    expect(response.output.map((item) => (item.type === 'function_call' ? item.call_id : item.type))).toEqual(
      ['call_own'],
    );

    upstream.script({ kind: 'responses', output: [{ type: 'message', text: 'Fixed.' }] });
    await client.responses.create({
      model: 'gpt-5',
      previous_response_id: response.id,
      input: [{ type: 'function_call_output', call_id: 'call_own', output: 'export const widget = 3;' }],
    });
    const sent = upstream.received[1]!.json;
    expect(sent.previous_response_id).toBe(upstream.served[0]);
    expect(sent.input.map((item: { call_id: string }) => item.call_id)).toEqual(['call_d1', 'call_own']);
    expect(sent.input[0].output).toContain('INFO ci step 100');
  });
});
