import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsStubSyntax, findStubs, formatStub, type StubNote } from './stub.js';

const handle = fc.nat(0xffffff).map((n) => `dh_${n.toString(16).padStart(12, '0')}`);
const note: fc.Arbitrary<StubNote | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<StubNote>(
    'like the line above',
    'like the error above',
    'like the findings above',
    'repeated above',
  ),
  fc.integer({ min: 1, max: 1e5 }).map((errors) => ({ errors })),
  fc.record({ errors: fc.nat(1e5), alike: fc.nat(1e5) }).filter(({ errors, alike }) => errors + alike > 0),
);

describe('stubs', () => {
  it('are found again with their count and handle, whatever note they carry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), handle, note, (count, h, n) => {
        const stub = formatStub(count, h, n);
        const text = `kept line\n${stub}\nnext line`;
        expect(findStubs(text)).toEqual([{ lineCount: count, handle: h, index: 10, length: stub.length }]);
        expect(containsStubSyntax(text)).toBe(true);
      }),
    );
  });

  it('say what they hide only in fixed phrases and a count, never in other words', () => {
    const h = 'dh_0123456789ab';
    expect(formatStub(325, h, 'like the line above')).toBe(
      `<< +325 lines like the line above, handle=${h} >>`,
    );
    expect(formatStub(59, h, 'like the error above')).toBe(
      `<< +59 more lines like the error above, handle=${h} >>`,
    );
    expect(formatStub(25, h, 'repeated above')).toBe(`<< +25 lines repeated above, handle=${h} >>`);
    expect(formatStub(60, h, { errors: 1 })).toBe(`<< +60 lines incl. 1 error, handle=${h} >>`);
    expect(formatStub(60, h, { errors: 3 })).toBe(`<< +60 lines incl. 3 errors, handle=${h} >>`);
    expect(formatStub(40, h, 'like the findings above')).toBe(
      `<< +40 more lines like the findings above, handle=${h} >>`,
    );
    expect(formatStub(9, h, { errors: 0, alike: 7 })).toBe(
      `<< +9 lines incl. 7 like the findings above, handle=${h} >>`,
    );
    expect(formatStub(20, h, { errors: 1, alike: 12 })).toBe(
      `<< +20 lines incl. 1 error and 12 like the findings above, handle=${h} >>`,
    );
    expect(findStubs(`<< +3 lines incl. 2 like the errors above, handle=${h} >>`)).toEqual([]);
    expect(findStubs(`<< +3 lines like the warning above, handle=${h} >>`)).toEqual([]);
    expect(findStubs(`<< +3 lines incl. some errors, handle=${h} >>`)).toEqual([]);
  });
});
