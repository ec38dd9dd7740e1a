import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseObject, ResponsesBody } from './responses-body.js';
import { looksLikeResponseObject, looksLikeResponsesBody } from './responses-shape.js';

// Values near the schema's edges: mostly right, sometimes one field wrong, null or absent, extra fields kept.
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom('', 'x', 'response', 'message', 'function_call_output'),
  fc.constant([]),
  fc.constant({}),
);
/** Mostly `valid`, now and then junk. */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: junk, weight: 1 });
/** A record whose keys are each absent now and then. */
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T): fc.Arbitrary<unknown> =>
  fc.record(fields, { requiredKeys: [] });
const text = fc.string({ maxLength: 3 });
const nullishText = mostly(fc.oneof(text, fc.constant(null)));
const nullishFlag = mostly(fc.oneof(fc.boolean(), fc.constant(null)));
const item = mostly(
  record({
    type: mostly(fc.constantFrom('message', 'function_call', 'function_call_output', 'reasoning')),
    call_id: junk,
    output: fc.oneof(text, junk),
  }),
);
const body = mostly(
  record({
    model: mostly(text),
    input: mostly(fc.oneof(text, fc.array(item, { maxLength: 3 }))),
    instructions: nullishText,
    tools: mostly(fc.array(mostly(record({ type: mostly(text) })), { maxLength: 2 })),
    stream: nullishFlag,
    store: nullishFlag,
    previous_response_id: nullishText,
    max_output_tokens: junk,
  }),
);
const reply = mostly(
  record({
    id: mostly(text),
    object: mostly(fc.constantFrom('response', 'chat.completion')),
    output: mostly(fc.array(item, { maxLength: 3 })),
    status: junk,
  }),
);

/** The share of generated values the schema accepts (a fixed seed: the figure is the same every run). */
function acceptedShare(values: fc.Arbitrary<unknown>, accepts: (json: unknown) => boolean): number {
  const sample = fc.sample(values, { numRuns: 2000, seed: 8 });
  return sample.filter(accepts).length / sample.length;
}

describe('the Responses shape checks', () => {
  it('accept exactly the request bodies ResponsesBody accepts', () => {
    fc.assert(
      fc.property(body, (json) => {
        expect(looksLikeResponsesBody(json)).toBe(ResponsesBody.safeParse(json).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('accept exactly the replies ResponseObject accepts', () => {
    fc.assert(
      fc.property(reply, (json) => {
        expect(looksLikeResponseObject(json)).toBe(ResponseObject.safeParse(json).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('are tested on both valid and invalid values', () => {
    // Neither side may be vanishingly rare, or the equality above would prove little.
    for (const [values, schema] of [
      [body, ResponsesBody],
      [reply, ResponseObject],
    ] as const) {
      const share = acceptedShare(values, (json) => schema.safeParse(json).success);
      expect(share).toBeGreaterThan(0.05);
      expect(share).toBeLessThan(0.95);
    }
  });

  it('accept a typical request with tool outputs', () => {
    const request = {
      model: 'gpt-5.4',
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
        { role: 'user', content: [{ type: 'input_text', text: 'go on' }] },
      ],
      tools: [{ type: 'function', name: 'bash', parameters: {} }],
      store: false,
      stream: null,
      previous_response_id: null,
    };
    expect(looksLikeResponsesBody(request)).toBe(true);
  });
});
