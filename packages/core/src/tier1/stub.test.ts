import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsStubSyntax, findStubs, formatStub } from './stub.js';

const handle = fc.nat(0xffffff).map((n) => `dh_${n.toString(16).padStart(12, '0')}`);

describe('stubs', () => {
  it('are found again with their count and handle, with or without a note', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), handle, fc.boolean(), (count, h, noted) => {
        const stub = formatStub(count, h, noted ? 'like the line above' : undefined);
        const text = `kept line\n${stub}\nnext line`;
        expect(findStubs(text)).toEqual([{ lineCount: count, handle: h, index: 10, length: stub.length }]);
        expect(containsStubSyntax(text)).toBe(true);
      }),
    );
  });

  it('say what they hide only in the fixed phrase, never in other words', () => {
    expect(formatStub(325, 'dh_0123456789ab', 'like the line above')).toBe(
      '<< +325 lines like the line above, handle=dh_0123456789ab >>',
    );
    expect(findStubs('<< +3 lines like the error above, handle=dh_0123456789ab >>')).toEqual([]);
  });
});
