import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protectedOffsets } from './lossless.js';

/** The line of every offset, by the character loop over every line end. */
function lineOf(t: string, offset: number): number {
  let line = 0;
  for (let i = 0; i < offset && i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 10 || (c === 13 && t.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}

describe('protectedOffsets', () => {
  it('answers questions asked in any order, remembering the last line only as a shortcut', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '\n', '\r', '\r\n'), maxLength: 60 });
    fc.assert(
      fc.property(
        text,
        fc.array(fc.boolean(), { maxLength: 70 }),
        fc.array(fc.integer({ min: 0, max: 62 }), { maxLength: 40 }),
        (t, marks, offsets) => {
          const protect = Uint8Array.from(marks, (m) => (m ? 1 : 0));
          const test = protectedOffsets(t, protect);
          for (const offset of offsets) expect(test(offset)).toBe(protect[lineOf(t, offset)] === 1);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('answers as the character loop over every line end does, with and without carriage returns', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', '\r\n'), maxLength: 60 });
    fc.assert(
      fc.property(text, fc.array(fc.boolean(), { maxLength: 70 }), (t, marks) => {
        const protect = Uint8Array.from(marks, (m) => (m ? 1 : 0));
        const starts = [0];
        for (let i = 0; i < t.length; i++) {
          const c = t.charCodeAt(i);
          if (c === 10 || (c === 13 && t.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
        }
        const test = protectedOffsets(t, protect);
        for (let offset = 0; offset <= t.length; offset++) {
          let line = 0;
          while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
          expect(test(offset)).toBe(protect[line] === 1);
        }
      }),
      { numRuns: 500 },
    );
  });
});
