import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

const LOG = buildLog(300, 'ci');

/** A conversation whose last tool result is long enough to be folded. */
function conversation(): Anthropic.MessageParam[] {
  return [
    { role: 'user', content: 'fix it' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_run', name: 'bash', input: { cmd: 'make' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_run', content: LOG }] },
  ];
}

/** Scripts a reply that expands the first handle the request shows. */
const expandFirstHandle =
  (text: string, id = 'toolu_x1') =>
  (request: ReceivedRequest) => ({
    kind: 'anthropic' as const,
    content: [
      { type: 'text' as const, text },
      { type: 'tool_use' as const, id, name: 'distil_expand', input: { handle: firstHandle(request.body) } },
    ],
  });

describe('Anthropic SDK through the proxy', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let client: Anthropic;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    // The cases expand the same kind of log again and again: the flywheel would soon send it whole
    // (expand-flywheel.test.ts); here the loop itself is under test.
    proxy = await startTestProxy(upstream, { learn: false });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  // Each test is its own conversation (its own session), whatever ran before it.
  let testNo = 0;
  beforeEach(() => {
    upstream.reset();
    client = new Anthropic({
      apiKey: 'sk-ant-test-key-123',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-distil-session': `test-${++testNo}` },
    });
  });

  it('compresses tool results, offers the distil tools and reports its overhead', async () => {
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'The test failed.' }] });
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: conversation() })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'The test failed.', citations: null }]);
    const sent = upstream.received[0]!.json;
    const result = sent.messages[2].content[0].content as string;
    expect(result.length).toBeLessThan(LOG.length / 3);
    expect(result).toContain('ERROR ci: test_widget_150 failed');
    expect(sent.tools.map((t: { name: string }) => t.name)).toEqual(['distil_expand', 'distil_search']);
    expect(Number(response.headers.get('x-distil-saved-tokens'))).toBeGreaterThan(1000);
    expect(Number(response.headers.get('x-distil-overhead-ms'))).toBeGreaterThanOrEqual(0);
    // The API key went upstream untouched and never into the proxy's log.
    const { authorization, 'x-api-key': apiKey } = upstream.received[0]!.headers;
    expect(`${authorization ?? ''} ${apiKey ?? ''}`).toContain('sk-ant-test-key-123');
    expect(proxy.logs.join('\n')).not.toContain('sk-ant-test-key-123');
  });

  it('answers distil_expand itself (non-streaming): the client sees one message without the call', async () => {
    upstream.script(expandFirstHandle('Let me look closer.'), {
      kind: 'anthropic',
      content: [{ type: 'text', text: 'Line 150 is the failure.' }],
      usage: { input_tokens: 300, output_tokens: 7 },
    });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me look closer.', citations: null },
      { type: 'text', text: 'Line 150 is the failure.', citations: null },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.id).toBe(upstream.served[0]); // the first reply's identity
    expect(message.usage.input_tokens).toBe(100 + 300);
    expect(message.usage.output_tokens).toBe(20 + 7);
    // The continuation carried the exact original lines to the model.
    const continuation = upstream.received[1]!.json;
    const answer = continuation.messages.at(-1).content[0];
    expect(answer.type).toBe('tool_result');
    expect(LOG).toContain(answer.content);
    expect(answer.content).toContain('INFO ci step 100: compiled module_100.ts');
  });

  it('splices the continuation into the same stream with consistent indices', async () => {
    upstream.script(expandFirstHandle('Looking.'), {
      kind: 'anthropic',
      content: [{ type: 'text', text: 'Found it: test_widget_150.' }],
    });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    const texts: string[] = [];
    const events: { type: string; index?: number }[] = [];
    stream.on('text', (delta) => texts.push(delta));
    stream.on('streamEvent', (event) =>
      events.push({ type: event.type, ...('index' in event ? { index: event.index } : {}) }),
    );
    const message = await stream.finalMessage();
    expect(message.content.map((part) => part.type)).toEqual(['text', 'text']);
    expect(texts.join('')).toBe('Looking.Found it: test_widget_150.');
    expect(message.stop_reason).toBe('end_turn');
    expect(events.filter((e) => e.type === 'message_start')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'content_block_start').map((e) => e.index)).toEqual([0, 1]);
    expect(JSON.stringify(events)).not.toContain('distil');
    expect(upstream.received).toHaveLength(2);
  });

  it('streams thinking to the client and sends it back upstream with its signature intact', async () => {
    upstream.script(
      (request) => ({
        kind: 'anthropic',
        content: [
          { type: 'thinking', thinking: 'The folded lines hold the failure.', signature: 'c2lnLTE=' },
          {
            type: 'tool_use',
            id: 'toolu_t1',
            name: 'distil_expand',
            input: { handle: firstHandle(request.body) },
          },
        ],
      }),
      { kind: 'anthropic', content: [{ type: 'text', text: 'test_widget_150 fails.' }] },
    );
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The folded lines hold the failure.', signature: 'c2lnLTE=' },
      { type: 'text', text: 'test_widget_150 fails.' },
    ]);
    const replayed = upstream.received[1]!.json.messages.at(-2);
    expect(replayed.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The folded lines hold the failure.',
      signature: 'c2lnLTE=',
    });
    expect(replayed.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_t1', name: 'distil_expand' });
  });

  it('gives the client its own tool calls and keeps the distil results for the next turn', async () => {
    upstream.script((request) => ({
      kind: 'anthropic',
      content: [
        { type: 'text', text: 'Two things.' },
        {
          type: 'tool_use',
          id: 'toolu_d1',
          name: 'distil_expand',
          input: { handle: firstHandle(request.body) },
        },
        { type: 'tool_use', id: 'toolu_own', name: 'bash', input: { cmd: 'cat widget.ts' } },
      ],
    }));
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([
      { type: 'text', text: 'Two things.' },
      { type: 'tool_use', id: 'toolu_own', name: 'bash', input: { cmd: 'cat widget.ts' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(upstream.received).toHaveLength(1);

    // Next turn: the client answers its own call; upstream sees the distil exchange spliced back in.
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'Fixed.' }] });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [
        ...conversation(),
        { role: 'assistant', content: message.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_own', content: 'export const widget = 3;' }],
        },
      ],
    });
    const sent = upstream.received[1]!.json.messages;
    expect(sent[3].content.map((p: { type: string; name?: string }) => p.name ?? p.type)).toEqual([
      'text',
      'distil_expand',
      'bash',
    ]);
    expect(sent[4].content.map((p: { tool_use_id: string }) => p.tool_use_id)).toEqual([
      'toolu_d1',
      'toolu_own',
    ]);
    expect(sent[4].content[0].content).toContain('INFO ci step 100');
  });

  it('keeps an expansion in every later turn, whole, and sends a re-read of it whole', async () => {
    upstream.script(expandFirstHandle('Checking.', 'toolu_sticky'), {
      kind: 'anthropic',
      content: [{ type: 'text', text: 'Done.' }],
    });
    const first = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    const expansion = upstream.received[1]!.json.messages.at(-1).content[0].content as string;
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [
        ...conversation(),
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'text', text: 'and again' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_again', name: 'bash', input: { cmd: 'make' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_again', content: LOG }] },
      ],
    });
    const sent = upstream.received[2]!.json.messages;
    // The distil exchange is back where it happened, with the expansion byte for byte.
    expect(sent[3].content.map((p: { type: string; name?: string }) => p.name ?? p.type)).toEqual([
      'text',
      'distil_expand',
    ]);
    expect(sent[4].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_sticky',
      content: expansion,
    });
    expect(sent[5].content).toEqual([{ type: 'text', text: 'Done.', citations: null }]);
    // The same output read again is sent whole: its folded lines were asked for once already.
    expect(sent.at(-1).content[0].content).toBe(LOG);
  });

  it('at the loop cap tells the model its expand budget is spent, then stops without showing a distil call', async () => {
    for (let i = 0; i < 7; i++) upstream.script(expandFirstHandle(`round ${i}.`, `toolu_cap${i}`));
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    // The first call, five answered continuations (cap 5), and one last round whose calls were refused.
    expect(upstream.received).toHaveLength(7);
    const last = upstream.received.at(-1)!.json.messages.at(-1).content;
    expect(last[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_cap5', is_error: true });
    expect(last[0].content).toContain('not answered');
    expect(message.content.every((part) => part.type === 'text')).toBe(true);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('at the loop cap the model can still go on with its own tools', async () => {
    for (let i = 0; i < 6; i++) upstream.script(expandFirstHandle(`round ${i}.`, `toolu_go${i}`));
    upstream.script({
      kind: 'anthropic',
      content: [{ type: 'tool_use', id: 'toolu_grep', name: 'bash', input: { cmd: 'grep ERROR log' } }],
    });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    expect(upstream.received).toHaveLength(7);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_grep', name: 'bash' });
  });

  it('relays upstream errors with their status, and mid-stream errors as error events', async () => {
    upstream.script({
      kind: 'status',
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    });
    await expect(
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: conversation() }),
    ).rejects.toMatchObject({ status: 429 });

    upstream.script({
      kind: 'anthropic',
      content: [{ type: 'text', text: 'partial answer here' }],
      errorAfterEvents: 4,
    });
    const broken = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    await expect(broken.finalMessage()).rejects.toThrow(/Overloaded/);

    upstream.script({
      kind: 'anthropic',
      content: [{ type: 'text', text: 'partial answer here' }],
      cutAfterEvents: 3,
    });
    const cut = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: conversation(),
    });
    await expect(cut.finalMessage()).rejects.toThrow(/upstream/);
  });

  it('never touches thinking blocks, signatures, server tool blocks or cache_control', async () => {
    const thinking = { type: 'thinking', thinking: 'I should run make.', signature: 'c2lnbmF0dXJl' };
    const redacted = { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' };
    const server = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'fix it', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          thinking,
          redacted,
          server,
          { type: 'tool_use', id: 'toolu_run', name: 'bash', input: { cmd: 'make' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_run',
            content: LOG,
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ];
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      thinking: { type: 'adaptive' } as never,
      messages: messages as Anthropic.MessageParam[],
    });
    const sent = upstream.received[0]!.json.messages;
    expect(sent[0]).toEqual(messages[0]);
    expect(sent[1]).toEqual(messages[1]);
    expect(sent[2].content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(Object.keys(sent[2].content[0])).toEqual(['type', 'tool_use_id', 'content', 'cache_control']);
    expect(sent[2].content[0].content).not.toBe(LOG);
  });

  it('forwards a bypassed or unparseable request byte for byte, and count_tokens compressed', async () => {
    const raw = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 5, messages: conversation() });
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    const headers = {
      'content-type': 'application/json',
      'x-api-key': 'k',
      'anthropic-version': '2023-06-01',
    };
    await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { ...headers, 'x-distil-bypass': '1' },
      body: raw,
    });
    expect(upstream.received[0]!.body).toBe(raw);
    expect(upstream.received[0]!.headers['x-distil-bypass']).toBeUndefined();

    const broken = `${raw.slice(0, 50)} not json`;
    upstream.script({
      kind: 'status',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad json' } },
    });
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: broken });
    expect(response.status).toBe(400);
    expect(upstream.received[1]!.body).toBe(broken);

    upstream.script({ kind: 'status', status: 200, body: { input_tokens: 1234 } });
    const counted = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: conversation(),
    });
    expect(counted.input_tokens).toBe(1234);
    expect(upstream.received[2]!.path).toBe('/v1/messages/count_tokens');
    expect(upstream.received[2]!.json.messages[2].content[0].content.length).toBeLessThan(LOG.length / 3);
  });
});
