import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLineNumbers } from '../tier0/line-numbers.js';
import { ReadView } from './read-view.js';

/** Lines of output, some numbered as a file reader numbers them, some not, some empty or with `\r`. */
const line = fc.oneof(
  fc.nat({ max: 12 }).map((n) => `${n + 1}\tline ${n}`),
  fc.nat({ max: 12 }).map((n) => `${String(n + 1).padStart(6)}\tline ${n}`),
  fc.nat({ max: 12 }).map((n) => `${n + 1}→line ${n}`),
  fc.constantFrom('', 'plain output', '1 not a gutter', 'x\r', '\t1\tindented'),
  fc.string({ unit: 'binary', maxLength: 8 }).map((text) => text.replaceAll('\n', '')),
);

describe('ReadView', () => {
  it('finds the gutter, the plain text and the line count that splitting the whole body finds', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, numberedRun) => {
        // half the time, a run numbered from 1 up, as a Read of a file is
        const body = (numberedRun ? lines.map((text, i) => `${i + 1}\t${text}`) : lines).join('\n');
        const view = new ReadView(body);
        const all = body.split('\n');
        const numbers = findLineNumbers(all);
        expect(view.numbers).toEqual(numbers);
        expect(view.lineCount).toBe(all.length);
        if (numbers === null) expect(view.plain).toBe(body);
        else expect(view.plain.split('\n')).toHaveLength(all.length);
      }),
      { numRuns: 500 },
    );
  });
});
