import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from './prng.js';

describe('Rng', () => {
  it('gives the same stream for the same seed and key', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.string({ maxLength: 12 }), (seed, key) => {
        const a = Rng.fromKey(seed, key);
        const b = Rng.fromKey(seed, key);
        for (let i = 0; i < 8; i++) expect(a.nextUint32()).toBe(b.nextUint32());
      }),
    );
  });

  it('draws integers inside their inclusive bounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: -500, max: 500 }),
        fc.nat(300),
        (seed, min, span) => {
          const rng = Rng.fromKey(seed, 'bounds');
          for (let i = 0; i < 20; i++) {
            const n = rng.int(min, min + span);
            expect(n).toBeGreaterThanOrEqual(min);
            expect(n).toBeLessThanOrEqual(min + span);
          }
        },
      ),
    );
  });

  it('forks child streams that do not depend on how far the parent has drawn', () => {
    const a = Rng.fromKey(7, 'parent');
    const b = Rng.fromKey(7, 'parent');
    for (let i = 0; i < 100; i++) b.next();
    expect(a.fork('child').uuid()).toBe(b.fork('child').uuid());
  });

  it('keeps its pinned output (a changed generator would silently change the whole dataset)', () => {
    const rng = Rng.fromKey(20_240_611, 'pin');
    expect([rng.nextUint32(), rng.nextUint32(), rng.hex(8)]).toEqual([3427775657, 3062522811, '39f2d083']);
  });
});
