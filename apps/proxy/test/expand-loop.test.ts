import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestSavings } from '../src/index.js';
import { FakeUpstream, type ReceivedRequest, type Reply } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

// The expand loop runs once for three APIs × two transports. Each case below runs on all six paths and
// reads only what a client and the ledger see: one reply without a distil call, and every upstream call
// priced — the client's request, each expand round trip, and a round that failed or broke.

const LOG = buildLog(300, 'ci');
type Api = 'anthropic' | 'chat' | 'responses';

/** Usage of one scripted round: fresh input, cached input, output. */
interface Billed {
  readonly fresh: number;
  readonly cached: number;
  readonly output: number;
}

const API: Record<Api, { path: string; model: string; request(): Record<string, unknown> }> = {
  anthropic: {
    path: '/v1/messages',
    model: 'claude-sonnet-4-6',
    request: () => ({
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_run', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_run', content: LOG }] },
      ],
    }),
  },
  chat: {
    path: '/v1/chat/completions',
    model: 'gpt-4o',
    request: () => ({
      messages: [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_run', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_run', content: LOG },
      ],
    }),
  },
  responses: {
    path: '/v1/responses',
    model: 'gpt-5',
    request: () => ({
      input: [
        { role: 'user', content: 'fix it' },
        { type: 'function_call', call_id: 'call_run', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_run', output: LOG },
      ],
    }),
  },
};

/** A scripted round: its text, then (when `expand`) a distil_expand call on the handle the request shows. */
/**
 * The handle a scripted model asks for: the stub in the request, or — on a Responses continuation, which
 * carries only the new items — the one it saw last, as a model remembers what it read.
 */
let lastHandle = '';
function handleToExpand(body: string): string {
  if (/handle=dh_/.test(body) || lastHandle === '') lastHandle = firstHandle(body);
  return lastHandle;
}

function round(api: Api, text: string, billed: Billed, expand: boolean, callId = 'x1') {
  return (request: ReceivedRequest): Reply => {
    const handle = expand ? handleToExpand(request.body) : '';
    const input = { handle };
    if (api === 'anthropic') {
      return {
        kind: 'anthropic',
        content: [
          { type: 'text', text },
          ...(expand
            ? [{ type: 'tool_use' as const, id: `toolu_${callId}`, name: 'distil_expand', input }]
            : []),
        ],
        usage: {
          input_tokens: billed.fresh,
          cache_read_input_tokens: billed.cached,
          output_tokens: billed.output,
        },
      };
    }
    if (api === 'chat') {
      return {
        kind: 'openai',
        content: text,
        toolCalls: expand
          ? [{ id: `call_${callId}`, name: 'distil_expand', arguments: JSON.stringify(input) }]
          : [],
        usage: {
          prompt_tokens: billed.fresh + billed.cached,
          cached_tokens: billed.cached,
          completion_tokens: billed.output,
        },
      };
    }
    return {
      kind: 'responses',
      output: [
        { type: 'message', text },
        ...(expand
          ? [
              {
                type: 'function_call' as const,
                call_id: `call_${callId}`,
                name: 'distil_expand',
                arguments: JSON.stringify(input),
              },
            ]
          : []),
      ],
      usage: {
        input_tokens: billed.fresh + billed.cached,
        cached_tokens: billed.cached,
        output_tokens: billed.output,
      },
    };
  };
}

/** The text a client reads from a reply, JSON body or event stream, in any of the three APIs. */
function replyText(stream: boolean, body: string): string {
  if (!stream) {
    const json = JSON.parse(body);
    const parts =
      json.content ?? json.output?.flatMap((item: { content?: unknown[] }) => item.content ?? []) ?? [];
    return (
      json.choices?.[0]?.message?.content ?? parts.map((part: { text?: string }) => part.text ?? '').join('')
    );
  }
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const event = JSON.parse(line.slice(6));
    if (event.delta?.type === 'text_delta') text += event.delta.text;
    else if (event.type === 'response.output_text.delta') text += event.delta;
    else if (typeof event.choices?.[0]?.delta?.content === 'string') text += event.choices[0].delta.content;
  }
  return text;
}

/** The last event of a stream, parsed. */
function lastEvent(body: string): Record<string, unknown> {
  const data = body.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data.at(-1)!.slice(6));
}

const toUsage = (b: Billed) => ({ input: b.fresh, cacheWrite: 0, cacheRead: b.cached, output: b.output });
const A: Billed = { fresh: 100, cached: 30, output: 20 };
const B: Billed = { fresh: 7, cached: 400, output: 9 };

const PATHS = (['anthropic', 'chat', 'responses'] as const).flatMap((api) =>
  [false, true].map((stream) => ({ api, stream, name: `${api} ${stream ? 'SSE' : 'JSON'}` })),
);

describe('the expand loop on every API and transport', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  const seen: RequestSavings[] = [];
  let session = 0;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    // Every case expands the same kind of log again: with the flywheel on, logs of that size would soon
    // be sent whole and have nothing to expand (expand-flywheel.test.ts tests exactly that).
    proxy = await startTestProxy(upstream, { onRequest: (savings) => seen.push(savings), learn: false });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.reset();
    seen.length = 0;
  });

  /** Sends the conversation through the proxy as its own session; the client's status and body. */
  async function send(api: Api, stream: boolean, extra: Record<string, unknown> = {}) {
    const response = await fetch(`${proxy.url}${API[api].path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'k',
        authorization: 'Bearer k',
        'x-distil-session': `loop-${++session}`,
      },
      body: JSON.stringify({
        model: API[api].model,
        stream,
        ...(api === 'chat' && stream ? { stream_options: { include_usage: true } } : {}),
        ...API[api].request(),
        ...extra,
      }),
    });
    return { status: response.status, body: await response.text() };
  }

  for (const { api, stream, name } of PATHS) {
    it(`${name}: one reply without the distil call; both calls priced, usage summed`, async () => {
      upstream.script(round(api, 'Looking.', A, true), round(api, 'Found it.', B, false));
      const { status, body } = await send(api, stream);
      expect(status).toBe(200);
      expect(replyText(stream, body)).toBe('Looking.Found it.');
      expect(body).not.toContain('distil_expand');
      expect(upstream.received).toHaveLength(2);
      const record = seen.at(-1)!;
      expect(record.upstreamCalls).toBe(2);
      expect(record.expands).toBe(1);
      expect(record.billed).toEqual({ input: 107, cacheWrite: 0, cacheRead: 430, output: 29 });
    });

    it(`${name}: a refused continuation reaches the client as a failure; the round trip is counted`, async () => {
      const refusal = { kind: 'status' as const, status: 429, body: { error: { message: 'slow down' } } };
      upstream.script(round(api, 'Looking.', A, true), refusal);
      const { status, body } = await send(api, stream);
      if (stream) {
        expect(status).toBe(200);
        expect(JSON.stringify(lastEvent(body))).toContain('upstream 429: slow down');
      } else {
        expect(status).toBe(429);
        expect(JSON.parse(body)).toEqual(refusal.body);
      }
      const record = seen.at(-1)!;
      expect(record.upstreamCalls).toBe(2);
      expect(record.billed).toEqual(toUsage(A));
    });

    it(`${name}: a refused first call is relayed as it came and priced nowhere`, async () => {
      upstream.script({ kind: 'status', status: 500, body: { error: { message: 'boom' } } });
      const { status, body } = await send(api, stream);
      expect(status).toBe(500);
      expect(JSON.parse(body)).toEqual({ error: { message: 'boom' } });
      expect(seen).toHaveLength(0);
    });

    it(`${name}: at the loop cap the turn ends with every call priced and no distil call shown`, async () => {
      for (let i = 0; i < 7; i++) upstream.script(round(api, `r${i}.`, A, true, `cap${i}`));
      const { status, body } = await send(api, stream);
      expect(status).toBe(200);
      expect(replyText(stream, body)).toBe('r0.r1.r2.r3.r4.r5.r6.');
      expect(body).not.toContain('distil_expand');
      // At the cap (5) the calls are refused with a note and the model is asked once more.
      expect(upstream.received.at(-1)!.body).toContain('not answered');
      const record = seen.at(-1)!;
      expect(record.upstreamCalls).toBe(7);
      // A stored Responses reply needs an output for each of its calls: the last ones are answered too,
      // and owed to the client's next request; the other APIs leave them unanswered.
      expect(record.expands).toBe(api === 'responses' ? 7 : 6);
    });
  }

  it('Anthropic SSE: a continuation cut mid-stream is priced as far as the upstream billed it', async () => {
    upstream.script(round('anthropic', 'Looking.', A, true), (request) => ({
      ...(round('anthropic', 'Found it.', B, false)(request) as Extract<Reply, { kind: 'anthropic' }>),
      cutAfterEvents: 3,
    }));
    const { body } = await send('anthropic', true);
    expect(lastEvent(body)).toMatchObject({ type: 'error' });
    const record = seen.at(-1)!;
    expect(record.upstreamCalls).toBe(2);
    // message_start carried the second round's input; its output count (1) was all it said before the cut.
    expect(record.billed).toEqual({ input: 107, cacheWrite: 0, cacheRead: 430, output: 21 });
  });

  it('Chat SSE without usage chunks: every round trip still counts', async () => {
    upstream.script(round('chat', 'Looking.', A, true), round('chat', 'Found it.', B, false));
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer k',
        'x-distil-session': 'no-usage',
      },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, ...API.chat.request() }),
    });
    expect(replyText(true, await response.text())).toBe('Looking.Found it.');
    const record = seen.at(-1)!;
    expect(record.upstreamCalls).toBe(2);
    expect(record.expands).toBe(1);
  });
});
