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

  // Every way a line and the blank line after it can end. A CR closing the blank line after a CRLF or LF
  // waits for the next character; a stream that stops on it was cut between the CR and LF of a CRLF.
  it.each([
    ['CRLF, CRLF', 'data: [DONE]\r\n\r\n', 1],
    ['LF, LF', 'data: [DONE]\n\n', 1],
    ['CR, CR', 'data: [DONE]\r\r', 1],
    ['CR, CRLF', 'data: [DONE]\r\r\n', 1],
    ['CRLF, LF', 'data: [DONE]\r\n\n', 1],
    ['LF, CRLF', 'data: [DONE]\n\r\n', 1],
    ['LF, CR and more', 'data: [DONE]\n\r: next', 1],
    ['CRLF, CR and more', 'data: [DONE]\r\n\r: next', 1],
    ['CRLF, then a CR the stream stops on', 'data: [DONE]\r\n\r', 0],
    ['one line end only', 'data: [DONE]\r\n', 0],
  ])('ends an event at %s', (_, text, count) => {
    const events = new SseParser().push(new TextEncoder().encode(text));
    expect(events.map((e) => e.data)).toEqual(Array(count).fill('[DONE]'));
    if (count > 0) expect(text.startsWith(events[0]!.raw)).toBe(true);
  });

  it('ends an event whose blank line is a CR once the next chunk shows no LF follows it', () => {
    const parser = new SseParser();
    expect(parser.push(new TextEncoder().encode('data: [DONE]\r\n\r'))).toEqual([]);
    const events = parser.push(new TextEncoder().encode(' '));
    expect(events.map((e) => [e.data, e.raw])).toEqual([['[DONE]', 'data: [DONE]\r\n\r']]);
  });
});
