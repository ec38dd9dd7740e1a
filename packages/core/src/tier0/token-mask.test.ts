import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNIT_FLAGS } from './mask-tables.js';
import { maskToken, oneWordSkeletonInto, sameAsShape, sameShapeByUnit } from './token-mask.js';

/** Code units around the digits' edges, with and without the top bit (`0x8030` is no digit). */
const unit = fc.oneof(
  fc.integer({ min: 0x2e, max: 0x3b }),
  fc.constantFrom(0, 0x20, 0x61, 0x7fff, 0x8000, 0x8030, 0x8039, 0xb030, 0xff39, 0xffff),
  fc.integer({ min: 0, max: 0xffff }),
);
const blindUnit = (c: number): number => (c >= 48 && c <= 57 ? 48 : c);

describe('token shape compare', () => {
  it('reads two units at a time as it would one at a time, at any alignment (property)', () => {
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return; // little-endian platforms only
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 24 }),
        fc.nat(3),
        fc.nat(3),
        fc.boolean(),
        (token, from, at, sameShape) => {
          // the stored shape: the token's own (often) or anything of its length (sometimes)
          const shape = sameShape
            ? token.map(blindUnit)
            : token.map((c, k) => (k % 3 === 0 ? c : blindUnit(c)));
          const t = new Uint16Array(from + token.length + 1);
          const shapes = new Uint16Array(at + token.length + 1);
          t.set(token, from);
          shapes.set(shape, at);
          const expected = sameShapeByUnit(t, from, token.length, shapes, at);
          expect(expected).toBe(token.every((c, k) => blindUnit(c) === shape[k]));
          const fast = sameAsShape(
            new DataView(t.buffer),
            from * 2,
            new DataView(shapes.buffer),
            at * 2,
            token.length,
          );
          expect(fast).toBe(expected);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});

describe('one-word tokens', () => {
  const char = fc.constantFrom(...'aFx0795-+_()[]#@,;*=./:é\u4e00'.split(''));
  const units = (s: string): Uint16Array => Uint16Array.from(s, (c) => c.charCodeAt(0));
  const flags = (s: string): number => units(s).reduce((seen, c) => seen | UNIT_FLAGS[c]!, 0);
  const written = (token: string): string | null => {
    const out = new Uint16Array(token.length + 1);
    const end = oneWordSkeletonInto(units(token), 0, token.length, flags(token), out, 0);
    return end < 0 ? null : String.fromCharCode(...out.subarray(0, end));
  };

  it('writes what the detailed pass makes of the token, whenever it takes one (property)', () => {
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 12 }), (chars) => {
        const token = chars.join('');
        const fast = written(token);
        if (fast !== null) expect(fast).toBe(maskToken(token.replace(/[0-9]/g, '0'), flags(token)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes hex ids and words in brackets, and leaves tokens of two words or with `=`, `.`, `/`, `:`', () => {
    expect(written('113d3a99c3da401f')).toBe('\u0000');
    expect(written('(J18),')).toBe('(\u0000),');
    expect(written('#-0x1f')).toBe('#\u0000');
    for (const token of ['blk_-42', 'a1-b2', 'k=v1', 'a1.b', 'x/1y', 'ret:1', 'abc']) {
      expect(written(token)).toBeNull();
    }
  });
});
