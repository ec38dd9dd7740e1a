import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitBlind } from './mask-tables.js';
import { LineMemo, sameByUnit, sameDigitBlind } from './template-line-memo.js';

const units = (s: string): Uint16Array => Uint16Array.from(s, (c) => c.charCodeAt(0));
const normal = (s: string): string => s.replace(/[0-9]/g, '0');
/** Code units around the digits' edges, with and without the top bit (`0x8030` is no digit). */
const unit = fc.oneof(
  fc.integer({ min: 0x2e, max: 0x3b }),
  fc.constantFrom(0, 0x20, 0x61, 0x7fff, 0x8000, 0x8030, 0x8039, 0xb030, 0xff39, 0xffff),
  fc.integer({ min: 0, max: 0xffff }),
);
const blindUnit = (c: number): number => (c >= 48 && c <= 57 ? 48 : c);

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
        memo.release(); // the next run's memo starts on this store, stale text and all
      }),
      { numRuns: 500 },
    );
  });

  it('reads a pair of code units digit-blind as each unit alone would be (property)', () => {
    fc.assert(
      fc.property(unit, unit, (lo, hi) => {
        const blind = digitBlind((hi << 16) | lo);
        expect([blind & 0xffff, blind >>> 16]).toEqual([blindUnit(lo), blindUnit(hi)]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('compares two units at a time as it would one unit at a time, at any alignment (property)', () => {
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return; // little-endian platforms only
    const text = fc.array(unit, { maxLength: 24 });
    fc.assert(
      fc.property(text, fc.nat(3), fc.nat(3), fc.boolean(), (line, aFrom, bFrom, digitsOnly) => {
        // b holds the same line with its digits changed (often) or anything (sometimes)
        const other = digitsOnly ? line.map((c) => (blindUnit(c) === 48 ? 48 + ((c * 7) % 10) : c)) : line;
        const a = new Uint16Array(aFrom + line.length + 1);
        const b = new Uint16Array(bFrom + line.length + 1);
        a.set(line, aFrom);
        b.set(other, bFrom);
        const view = (u: Uint16Array): DataView => new DataView(u.buffer);
        const expected = sameByUnit(a, aFrom, b, bFrom, line.length);
        expect(expected).toBe(line.every((c, k) => blindUnit(c) === blindUnit(other[k]!)));
        expect(sameDigitBlind(view(a), aFrom * 2, view(b), bFrom * 2, line.length)).toBe(expected);
      }),
      { numRuns: 5_000 },
    );
  });
});
