import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatBody, ChatCompletion } from './chat-body.js';
import { looksLikeChatBody, looksLikeChatCompletion } from './chat-shape.js';

// Values near the schema's edges: mostly right, sometimes one field wrong, null or absent, extra fields kept.
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1.5, Number.NaN, 2 ** 53, -0),
  fc.constantFrom('', 'x', 'tool', 'assistant', 'chat.completion', 'text', 'function'),
  fc.constant([]),
  fc.constant({}),
);
/** Mostly `valid`, now and then junk. */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: valid, weight: 11 }, { arbitrary: junk, weight: 1 });
/** A record whose keys are each absent now and then. */
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T): fc.Arbitrary<unknown> =>
  fc.record(fields, { requiredKeys: [] });
const text = fc.string({ maxLength: 3 });
const part = mostly(record({ type: mostly(text), text: junk }));
const content = mostly(fc.oneof(text, fc.constant(null), fc.array(part, { maxLength: 2 })));
const toolCall = mostly(
  record({
    id: mostly(text),
    type: junk,
    function: mostly(record({ name: mostly(text), arguments: fc.oneof(text, junk) })),
  }),
);
const message = mostly(
  record({
    role: mostly(fc.constantFrom('system', 'user', 'assistant', 'tool')),
    content,
    tool_calls: mostly(fc.oneof(fc.constant(null), fc.array(toolCall, { maxLength: 2 }))),
    tool_call_id: mostly(fc.oneof(text, fc.constant(null))),
    name: junk,
  }),
);
const body = mostly(
  record({
    model: mostly(text),
    messages: mostly(fc.array(message, { maxLength: 3 })),
    tools: mostly(fc.array(mostly(record({ type: mostly(text) })), { maxLength: 2 })),
    stream: mostly(fc.oneof(fc.boolean(), fc.constant(null))),
    n: mostly(fc.oneof(fc.integer(), fc.constant(null))),
    max_completion_tokens: junk,
  }),
);
const choice = mostly(
  record({
    index: junk,
    message: mostly(record({ role: mostly(text), content: junk })),
    finish_reason: mostly(fc.oneof(text, fc.constant(null))),
  }),
);
const reply = mostly(
  record({
    object: mostly(fc.constantFrom('chat.completion', 'chat.completion.chunk')),
    choices: mostly(fc.array(choice, { maxLength: 2 })),
    usage: junk,
    id: junk,
  }),
);

/** The share of generated values the schema accepts (a fixed seed: the figure is the same every run). */
function acceptedShare(values: fc.Arbitrary<unknown>, accepts: (json: unknown) => boolean): number {
  const sample = fc.sample(values, { numRuns: 2000, seed: 8 });
  return sample.filter(accepts).length / sample.length;
}

describe('the Chat Completions shape checks', () => {
  it('accept exactly the request bodies ChatBody accepts', () => {
    fc.assert(
      fc.property(body, (json) => {
        expect(looksLikeChatBody(json)).toBe(ChatBody.safeParse(json).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('accept exactly the replies ChatCompletion accepts', () => {
    fc.assert(
      fc.property(reply, (json) => {
        expect(looksLikeChatCompletion(json)).toBe(ChatCompletion.safeParse(json).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('are tested on both valid and invalid values', () => {
    // Neither side may be vanishingly rare, or the equality above would prove little.
    for (const [values, schema] of [
      [body, ChatBody],
      [reply, ChatCompletion],
    ] as const) {
      const share = acceptedShare(values, (json) => schema.safeParse(json).success);
      expect(share).toBeGreaterThan(0.05);
      expect(share).toBeLessThan(0.95);
    }
  });

  it('accept a typical request with tool results', () => {
    const request = {
      model: 'gpt-5.4',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
      tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }],
      stream: false,
      n: 1,
    };
    expect(looksLikeChatBody(request)).toBe(true);
    expect(looksLikeChatBody({ ...request, n: 1.5 })).toBe(false);
  });
});
