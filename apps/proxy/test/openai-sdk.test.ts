import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

const LOG = buildLog(300, 'ci');

function conversation(): OpenAI.ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'fix it' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_run', type: 'function', function: { name: 'bash', arguments: '{"cmd":"make"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_run', content: LOG },
  ];
}

const expandFirstHandle =
  (content: string | null, id = 'call_x1') =>
  (request: ReceivedRequest) => ({
    kind: 'openai' as const,
    content,
    toolCalls: [
      { id, name: 'distil_expand', arguments: JSON.stringify({ handle: firstHandle(request.body) }) },
    ],
  });

const TOOLS: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'bash', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  },
];

describe('OpenAI SDK (Chat Completions) through the proxy', () => {
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

  it('compresses tool messages and offers the distil tools after the client’s own', async () => {
    upstream.script({ kind: 'openai', content: 'The widget test failed.' });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: conversation(),
      tools: TOOLS,
    });
    expect(completion.choices[0]!.message.content).toBe('The widget test failed.');
    const sent = upstream.received[0]!.json;
    expect(sent.messages[3].content.length).toBeLessThan(LOG.length / 3);
    expect(sent.messages[3].content).toContain('ERROR ci: test_widget_150 failed');
    expect(sent.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'bash',
      'distil_expand',
      'distil_search',
    ]);
    expect(upstream.received[0]!.headers.authorization).toBe('Bearer sk-openai-test-key');
  });

  it('answers distil_expand itself (non-streaming)', async () => {
    upstream.script(expandFirstHandle(null), {
      kind: 'openai',
      content: 'Line 150 is the failure.',
      usage: { prompt_tokens: 400, completion_tokens: 9, cached_tokens: 300 },
    });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: conversation(),
      tools: TOOLS,
    });
    const message = completion.choices[0]!.message;
    expect(message.content).toBe('Line 150 is the failure.');
    expect(message.tool_calls).toBeUndefined();
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.id).toBe(upstream.served[0]);
    expect(completion.usage).toMatchObject({ prompt_tokens: 500, completion_tokens: 29, total_tokens: 529 });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(300);
    const continuation = upstream.received[1]!.json.messages;
    expect(continuation.at(-2).tool_calls[0].function.name).toBe('distil_expand');
    expect(continuation.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_x1' });
    expect(LOG).toContain(continuation.at(-1).content);
  });

  it('streams text as it comes and splices the continuation into one completion', async () => {
    upstream.script(expandFirstHandle('Looking. '), { kind: 'openai', content: 'Found test_widget_150.' });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: conversation(),
      tools: TOOLS,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const completion = await stream.finalChatCompletion();
    expect(deltas.join('')).toBe('Looking. Found test_widget_150.');
    expect(completion.choices[0]!.message.content).toBe('Looking. Found test_widget_150.');
    expect(completion.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBe(200);
    expect(upstream.received).toHaveLength(2);
  });

  it('streams the agent’s own calls renumbered and keeps distil results for the next turn', async () => {
    upstream.script((request) => ({
      kind: 'openai',
      content: null,
      toolCalls: [
        {
          id: 'call_d1',
          name: 'distil_expand',
          arguments: JSON.stringify({ handle: firstHandle(request.body) }),
        },
        { id: 'call_own', name: 'bash', arguments: '{"cmd":"cat widget.ts"}' },
      ],
    }));
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: conversation(),
      tools: TOOLS,
    });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(message.tool_calls).toEqual([
      { id: 'call_own', type: 'function', function: { name: 'bash', arguments: '{"cmd":"cat widget.ts"}' } },
    ]);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');

    upstream.script({ kind: 'openai', content: 'Fixed.' });
    await client.chat.completions.create({
      model: 'gpt-4o',
      tools: TOOLS,
      messages: [
        ...conversation(),
        { role: 'assistant', content: message.content, tool_calls: message.tool_calls },
        { role: 'tool', tool_call_id: 'call_own', content: 'export const widget = 3;' },
      ],
    });
    const sent = upstream.received[1]!.json.messages;
    expect(sent[4].tool_calls.map((c: { id: string }) => c.id)).toEqual(['call_d1', 'call_own']);
    expect(sent[5]).toMatchObject({ role: 'tool', tool_call_id: 'call_d1' });
    expect(sent[5].content).toContain('INFO ci step 100');
    expect(sent[6]).toMatchObject({ role: 'tool', tool_call_id: 'call_own' });
  });

  it('relays upstream errors with their status and a broken stream as an error', async () => {
    upstream.script({
      kind: 'status',
      status: 500,
      body: { error: { message: 'boom', type: 'server_error' } },
    });
    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: conversation() }),
    ).rejects.toMatchObject({
      status: 500,
    });
    upstream.script({ kind: 'openai', content: 'partial answer', cutAfterEvents: 2 });
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: conversation() });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/upstream/);
  });
});
