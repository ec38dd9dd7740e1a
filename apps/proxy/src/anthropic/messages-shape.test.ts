import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeRequest } from '../../test/wire-fixtures.js';
import { MessagesBody, ResponseMessage } from './messages-body.js';
import { looksLikeMessagesBody, looksLikeResponseMessage } from './messages-shape.js';

// Values near the schema's edges: mostly right, sometimes one field wrong or absent, extra fields kept.
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom('', 'x', 'user', 'assistant', 'message', 'text'),
  fc.constant([]),
  fc.constant({}),
);
/** Mostly `valid`, now and then junk. */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: junk, weight: 1 });
/** A record whose keys are each absent now and then. */
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T): fc.Arbitrary<unknown> =>
  fc.record(fields, { requiredKeys: [] });
const part = mostly(record({ type: mostly(fc.string({ maxLength: 4 })), text: junk }));
const content = mostly(fc.oneof(fc.string({ maxLength: 4 }), fc.array(part, { maxLength: 3 })));
const message = mostly(
  record({ role: mostly(fc.constantFrom('user', 'assistant', 'system', 'narrator')), content, extra: junk }),
);
const tool = mostly(
  record({ name: mostly(fc.string({ maxLength: 3 })), type: mostly(fc.string({ maxLength: 3 })) }),
);
const body = mostly(
  record({
    model: mostly(fc.string({ maxLength: 3 })),
    messages: mostly(fc.array(message, { maxLength: 4 })),
    system: content,
    tools: mostly(fc.array(tool, { maxLength: 3 })),
    stream: mostly(fc.boolean()),
    max_tokens: junk,
  }),
);
const reply = mostly(
  record({
    type: mostly(fc.constantFrom('message', 'error')),
    content: mostly(fc.array(part, { maxLength: 3 })),
    usage: mostly(record({ input_tokens: junk })),
    id: junk,
  }),
);

describe('the Messages shape checks', () => {
  it('accept exactly the request bodies MessagesBody accepts', () => {
    fc.assert(
      fc.property(body, (json) => {
        expect(looksLikeMessagesBody(json)).toBe(MessagesBody.safeParse(json).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('accept exactly the replies ResponseMessage accepts', () => {
    fc.assert(
      fc.property(reply, (json) => {
        expect(looksLikeResponseMessage(json)).toBe(ResponseMessage.safeParse(json).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('accept a typical request with tool results', () => {
    const request = {
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      ],
      tools: [{ name: 'bash', input_schema: {} }],
      stream: true,
    };
    expect(looksLikeMessagesBody(request)).toBe(true);
  });

  it('accept the body the real Claude Code sends, with its mid-conversation system message', () => {
    const { json } = claudeCodeRequest();
    expect(looksLikeMessagesBody(json)).toBe(true);
    expect(MessagesBody.safeParse(json).success).toBe(true);
  });
});
