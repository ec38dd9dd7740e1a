import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSegments, stripTerminator } from './lines.js';

// The definition splitSegments implements without a regular expression.
const LINE = /[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g;

describe('splitSegments', () => {
  it('cuts lines as the line pattern does, and joins back to the exact text', () => {
    const text = fc
      .array(fc.constantFrom('a', 'bc', 'déjà', '\r', '\n', '\r\n', '\n\r', ' ', ''), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 40 })), (t) => {
        const { segments, lines } = splitSegments(t);
        const expected = t.match(LINE) ?? [];
        expect(segments).toEqual(expected);
        expect(lines).toEqual(expected.map(stripTerminator));
        expect(segments.join('')).toBe(t);
      }),
      { numRuns: 10_000 },
    );
  });

  it('keeps each terminator with its line', () => {
    expect(splitSegments('a\r\nb\rc\n\nd')).toEqual({
      segments: ['a\r\n', 'b\r', 'c\n', '\n', 'd'],
      lines: ['a', 'b', 'c', '', 'd'],
    });
    expect(splitSegments('')).toEqual({ segments: [], lines: [] });
  });
});
