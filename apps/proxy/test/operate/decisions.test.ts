import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/index.js';
import { divergence, readReplyDecision } from '../../src/operate/shadow/reply-decision.js';
import {
  type AnthropicReply,
  anthropicErrorEvent,
  anthropicEvents,
  anthropicMessage,
  type OpenAIReply,
  openaiChunks,
  openaiCompletion,
  type ResponsesReply,
  responseObject,
  responsesEvents,
} from '../provider-wire.js';

const request = { json: { model: 'm', stream: true } };
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const stream = (events: string[]): Buffer => Buffer.from(events.join(''));

const anthropicCall: AnthropicReply = {
  kind: 'anthropic',
  content: [
    { type: 'text', text: 'Running it.' },
    { type: 'tool_use', id: 't1', name: 'bash', input: { cmd: 'make test', timeout: 30 } },
  ],
};
const chatCall: OpenAIReply = {
  kind: 'openai',
  content: null,
  toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"cmd":"make test","timeout":30}' }],
};
const responsesCall: ResponsesReply = {
  kind: 'responses',
  output: [
    { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"cmd":"make test","timeout":30}' },
  ],
};
const CALL = [{ type: 'tool_call', tool: 'bash', arguments: { cmd: 'make test', timeout: 30 } }];

describe('reading the decision out of a reply', () => {
  it('reads the same tool call from JSON and from the event stream of every provider route', () => {
    const cases: [string, Buffer][] = [
      ['POST /v1/messages', json(anthropicMessage(anthropicCall, 1, request))],
      ['POST /v1/messages', stream(anthropicEvents(anthropicCall, 1, request))],
      ['POST /v1/chat/completions', json(openaiCompletion(chatCall, 1, request))],
      ['POST /v1/chat/completions', stream([...openaiChunks(chatCall, 1, request), 'data: [DONE]\n\n'])],
      ['POST /v1/responses', json(responseObject(responsesCall, 1, request))],
      ['POST /v1/responses', stream(responsesEvents(responsesCall, 1, request))],
    ];
    for (const [route, body] of cases) expect(readReplyDecision(route, body), route).toEqual(CALL);
  });

  it('reads a final answer as its text, whole even when streamed in pieces', () => {
    const text = 'The widget test fails on line 150.';
    const anthropic: AnthropicReply = { kind: 'anthropic', content: [{ type: 'text', text }] };
    const chat: OpenAIReply = { kind: 'openai', content: text };
    const responses: ResponsesReply = { kind: 'responses', output: [{ type: 'message', text }] };
    const final = [{ type: 'final', text }];
    expect(readReplyDecision('POST /v1/messages', stream(anthropicEvents(anthropic, 2, request)))).toEqual(
      final,
    );
    expect(readReplyDecision('POST /v1/chat/completions', stream(openaiChunks(chat, 2, request)))).toEqual(
      final,
    );
    expect(readReplyDecision('POST /v1/responses', json(responseObject(responses, 2, request)))).toEqual(
      final,
    );
  });

  it('finds no decision in a failed or cut stream, an error body or an unknown route', () => {
    const events = anthropicEvents(anthropicCall, 3, request);
    expect(
      readReplyDecision('POST /v1/messages', stream([...events.slice(0, 4), anthropicErrorEvent('x')])),
    ).toBeNull();
    expect(readReplyDecision('POST /v1/messages', stream(events.slice(0, -1)))).toBeNull();
    const chunks = openaiChunks(chatCall, 3, request);
    expect(readReplyDecision('POST /v1/chat/completions', stream(chunks.slice(0, -1)))).toBeNull();
    expect(
      readReplyDecision('POST /v1/messages', json({ type: 'error', error: { message: 'x' } })),
    ).toBeNull();
    expect(readReplyDecision('POST /v1/messages', Buffer.from('not json'))).toBeNull();
    expect(readReplyDecision('POST /v1/embeddings', json({ data: [] }))).toBeNull();
  });
});

describe('comparing decisions', () => {
  const call = (tool: string, args: Record<string, unknown>) => ({
    type: 'tool_call' as const,
    tool,
    arguments: args,
  });
  const final = (text: string) => ({ type: 'final' as const, text });

  it('treats normalised arguments and normalised text as the same decision', () => {
    expect(
      divergence([call('bash', { cmd: 'ls ', n: 3 })], [call('bash', { n: '3', cmd: 'ls' })]),
    ).toBeNull();
    expect(divergence([call('bash', { cmd: 'ls', extra: null })], [call('bash', { cmd: 'ls' })])).toBeNull();
    expect(divergence([final('done.\r\n')], [final('done.')])).toBeNull();
  });

  it('names how decisions differ, content-free', () => {
    expect(divergence([call('bash', { cmd: 'ls' })], [final('done')])).toBe('call_vs_answer');
    expect(divergence([final('yes')], [final('no')])).toBe('answer_text');
    expect(divergence([call('bash', { cmd: 'ls' })], [call('edit', { cmd: 'ls' })])).toBe('tool_name');
    expect(divergence([call('bash', { cmd: 'ls' })], [call('bash', { cmd: 'pwd' })])).toBe('tool_arguments');
    expect(divergence([call('bash', {})], [call('bash', {}), call('bash', { a: 1 })])).toBe('call_count');
  });
});

describe('the Wilson interval', () => {
  it('matches published values', () => {
    // Newcombe (1998), Statistics in Medicine 17:857, table I: 0/10 → 0–0.2775, 1/29 → 0.0061–0.1718.
    const zero = wilsonInterval(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 4);
    const one = wilsonInterval(1, 29);
    expect(one.low).toBeCloseTo(0.0061, 4);
    expect(one.high).toBeCloseTo(0.1718, 4);
    expect(wilsonInterval(0, 0)).toMatchObject({ low: 0, high: 1 });
  });

  it('always holds the observed rate inside [0, 1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), (a, b) => {
        const [k, n] = a <= b ? [a, b] : [b, a];
        const i = wilsonInterval(k, n);
        return 0 <= i.low && i.low <= i.rate && i.rate <= i.high && i.high <= 1;
      }),
    );
  });

  it('covers a known rate about 95% of the time (seeded binomial draws)', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const p = 0.08;
    const n = 60;
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      let k = 0;
      for (let i = 0; i < n; i++) if (random() < p) k++;
      const interval = wilsonInterval(k, n);
      if (interval.low <= p && p <= interval.high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.92);
  });
});
