import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTextDelta, textDelta } from './text-delta.js';

describe('textDelta', () => {
  it('rebuilds the later version from the earlier one exactly (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', '', 'dd', 'x\r', ' e ');
    const text = fc
      .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
      .map(([lines, newline]) => lines.join('\n') + (newline ? '\n' : ''));
    fc.assert(
      fc.property(text, text, (earlier, later) => {
        expect(applyTextDelta(earlier, textDelta(earlier, later))).toBe(later);
      }),
      { numRuns: 10_000 },
    );
  });

  it('prints hunks with one line of context and no file headers', () => {
    expect(textDelta('a\nb\nc\nd\n', 'a\nb\nC\nd\n')).toBe('@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n');
    expect(textDelta('same\n', 'same\n')).toBe('');
  });

  it('refuses a diff that does not apply', () => {
    expect(() => applyTextDelta('x\ny\n', '@@ -1,1 +1,1 @@\n-q\n+r\n')).toThrow(/does not apply/);
  });
});
