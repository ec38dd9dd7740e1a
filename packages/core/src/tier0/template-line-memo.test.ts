import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineMemo } from './template-line-memo.js';

const units = (s: string): Uint16Array => Uint16Array.from(s, (c) => c.charCodeAt(0));
const normal = (s: string): string => s.replace(/[0-9]/g, '0');

describe('LineMemo', () => {
  it('finds only a line remembered before that equals the line once digits read as 0, whatever its bound', () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '1', '7', '0'), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.constantFrom(0, 8, 40, 1 << 23), (lines, bound) => {
        const memo = new LineMemo(bound);
        // the reference: the id of the first line of each normal form (ids are the line indices here)
        const first = new Map<string, number>();
        let stored = 0;
        lines.forEach((text, i) => {
          const found = memo.find(units(text), 0, text.length);
          const known = first.get(normal(text));
          if (found >= 0) expect(found).toBe(known);
          // and every line it stored within its bound is found again
          else expect(known).toBeUndefined();
          if (found < 0) {
            memo.remember(units(text), 0, text.length, i);
            if (known === undefined && stored + text.length <= bound) {
              first.set(normal(text), i);
              stored += text.length;
            }
          }
        });
      }),
      { numRuns: 500 },
    );
  });
});
