import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasIdentifier } from './identifiers.js';

// The identifier patterns as one alternation, e-mail included: what hasIdentifier decides.
const IDENTIFIER = new RegExp(
  [
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
    String.raw`\b(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\d)[0-9a-f]{7,40}\b`,
    String.raw`\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b`,
    String.raw`\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`,
    String.raw`\b(?:\d{1,3}\.){3}\d{1,3}\b`,
    String.raw`\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b`,
    String.raw`(?:^|[\s'"(=:])(?:\.{0,2}/|~/|[A-Za-z]:\\)?[\w.-]+(?:[/\\][\w.-]+)+\.\w{1,8}\b`,
  ].join('|'),
  'i',
);

describe('hasIdentifier', () => {
  it('answers as the patterns do, e-mail addresses included, whatever the line', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      '_',
      '7',
      'x9',
      'dev',
      '@',
      '.',
      '-',
      '+',
      ' ',
      ':',
      'é',
      'com',
      '/',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join('');
        expect(hasIdentifier(line)).toBe(IDENTIFIER.test(line));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds an address and refuses near misses', () => {
    expect(hasIdentifier('mail ops+ci@build-1.example.org now')).toBe(true);
    expect(hasIdentifier('mail .+@example.org now')).toBe(false); // no word character before the `@`
    expect(hasIdentifier('mail ops@example now')).toBe(false); // a domain needs a dot
    expect(hasIdentifier('mail ops@example.- now')).toBe(false);
  });

  it('reads a long run before an `@` once (the pattern: minutes for this one)', () => {
    const run = 'a.'.repeat(150_000);
    expect(hasIdentifier(`${run} @ ${run}`)).toBe(false);
    expect(hasIdentifier(`${run}b@example.org`)).toBe(true);
  });
});
