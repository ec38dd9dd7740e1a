import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dottedNames, hasDottedName, joinedNames, names, replaceNames } from './names.js';

const DOTTED_NAME = /[A-Za-z_][\w-]*\.[A-Za-z_][\w.-]*/g;
const NAME = /(?:[\w.-]*\/)+[\w.-]*|[A-Za-z_][\w-]*\.[A-Za-z_][\w.-]*/g;
const JOINED_NAME = /[\w$-]+(?:[./\\][\w$-]+)+/g;

const found = (scan: typeof names, line: string): string[] => {
  const out: string[] = [];
  scan(line, (start, end) => out.push(line.slice(start, end)));
  return out;
};

// Pieces of names, paths and what lies between them, non-ASCII word characters too (not `\w`).
const line = fc
  .array(fc.constantFrom('a', 'Z', '_', '7', 'org', 'Error', '.', '/', '\\', '-', ' ', ':', '(', 'é', '$'), {
    maxLength: 50,
  })
  .map((pieces) => pieces.join(''));

describe('names', () => {
  it("give the patterns' matches, in order, whatever the line", () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(found(dottedNames, text)).toEqual([...text.matchAll(DOTTED_NAME)].map((m) => m[0]));
        expect(found(names, text)).toEqual([...text.matchAll(NAME)].map((m) => m[0]));
        expect(found(joinedNames, text)).toEqual([...text.matchAll(JOINED_NAME)].map((m) => m[0]));
        expect(hasDottedName(text)).toBe(new RegExp(DOTTED_NAME.source).test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('replace as String.replace does', () => {
    fc.assert(
      fc.property(line, (text) => {
        const by = (name: string): string => (name.endsWith('Error') ? name : ' ');
        expect(replaceNames(text, names, by)).toBe(text.replace(NAME, by));
        expect(replaceNames(text, dottedNames, () => '')).toBe(text.replace(DOTTED_NAME, ''));
        expect(replaceNames(text, joinedNames, () => '')).toBe(text.replace(JOINED_NAME, ''));
      }),
      { numRuns: 2000 },
    );
  });

  it('read a long word once (the patterns: minutes for this one)', () => {
    const word = 'a'.repeat(300_000);
    const text = `ERROR invalid token ${word} at org.acme.Parser (src/${word}.ts)`;
    expect(found(dottedNames, text)).toEqual(['org.acme.Parser', `${word}.ts`]);
    expect(found(names, text)).toEqual(['org.acme.Parser', `src/${word}.ts`]);
    expect(found(joinedNames, text)).toEqual(['org.acme.Parser', `src/${word}.ts`]);
  });
});
