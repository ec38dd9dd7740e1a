import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namedEvent, SseParser } from './sse.js';

describe('SseParser', () => {
  it('reads named events, joined data lines, comments and CRLF endings', () => {
    const parser = new SseParser();
    const text = 'event: ping\r\ndata: {"a":1}\r\n\r\n: keep-alive\n\ndata: one\ndata: two\n\n';
    const events = parser.push(new TextEncoder().encode(text));
    expect(events.map(({ event, data }) => ({ event, data }))).toEqual([
      { event: 'ping', data: '{"a":1}' },
      { event: undefined, data: '' },
      { event: undefined, data: 'one\ntwo' },
    ]);
    expect(events.map((e) => e.raw).join('')).toBe(text);
  });

  it('gives the same events and raw bytes however the stream is cut (multi-byte characters included)', () => {
    const stream = [
      namedEvent('content_block_delta', { delta: { text: 'héllo → 世界' } }),
      'data: [DONE]\n\n',
      namedEvent('message_stop', { type: 'message_stop' }),
    ].join('');
    const bytes = new TextEncoder().encode(stream);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        (cuts) => {
          const parser = new SseParser();
          const events = [];
          let start = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            events.push(...parser.push(bytes.subarray(start, cut)));
            start = cut;
          }
          events.push(...parser.push(bytes.subarray(start)), ...parser.end());
          expect(events.map((e) => e.raw).join('')).toBe(stream);
          expect(events.map((e) => e.data)).toEqual([
            JSON.stringify({ delta: { text: 'héllo → 世界' } }),
            '[DONE]',
            '{"type":"message_stop"}',
          ]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
