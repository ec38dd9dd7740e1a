import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorsIn, collectAnchors } from './anchors.js';

/** The definition anchorsIn scans for: both patterns' matches over the whole line, in that order. */
function anchorsByPattern(line: string, anchors: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const pattern of [/[A-Za-z_]\w*|\d{3,}/g, /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g])
    for (const match of line.matchAll(pattern)) if (anchors.has(match[0])) found.add(match[0]);
  return [...found];
}

// Pieces that make words, digit runs of every length, paths, extensions and the characters between them.
const PIECES = [
  'a',
  'Z',
  '_',
  '0',
  '7',
  '12',
  '345',
  '2024',
  'src',
  'build',
  'main',
  'ts',
  'js',
  'json',
  'py',
  '.',
  '..',
  '/',
  './',
  '-',
  ' ',
  ':',
  '(',
  ')',
  '"',
  "'",
  ',',
  '=',
  '\t',
  'é',
  '→',
  '日',
];

describe('anchorsIn', () => {
  it('finds the anchors both token patterns find, in their order, whatever the line and the set', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
        (pieces, picks, extra) => {
          const line = pieces.join('');
          // Anchors: substrings of the line at random places (most are no token), and strangers.
          const anchors = new Set(extra);
          for (let k = 0; k + 1 < picks.length; k += 2) {
            const a = picks[k]! % (line.length + 1);
            const b = picks[k + 1]! % (line.length + 1);
            anchors.add(line.slice(Math.min(a, b), Math.max(a, b)));
          }
          for (const token of collectAnchors([line])) if (picks.length % 3 === 0) anchors.add(token);
          expect([...anchorsIn(line, anchors)]).toEqual(anchorsByPattern(line, anchors));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('finds anchors of every length, longer than 31 characters too', () => {
    const long = 'AbstractSingletonProxyFactoryBeanTest_case_42';
    const line = `ran ${long} and ${long.slice(0, 31)} and ${'7'.repeat(40)} then Ab`;
    const anchors = new Set([long, long.slice(0, 31), long.slice(0, 32), '7'.repeat(40), 'Ab']);
    expect([...anchorsIn(line, anchors)]).toEqual(anchorsByPattern(line, anchors));
    expect(anchorsIn(line, anchors)).toEqual(new Set([long, long.slice(0, 31), '7'.repeat(40), 'Ab']));
  });

  it('finds word, number and path anchors on a log line', () => {
    const line = 'ERROR 2024 build_77 failed: src/app/main.ts:12 (see ./logs/run-3.log) 99fail12345';
    const anchors = new Set(['build_77', '2024', 'src/app/main.ts', './logs/run-3.log', 'fail12345', 'main']);
    expect([...anchorsIn(line, anchors)]).toEqual([
      '2024',
      'build_77',
      'main',
      'fail12345', // after "99": two digits are no token, and the word starts at the first letter
      'src/app/main.ts',
      './logs/run-3.log',
    ]);
    expect(anchorsByPattern(line, anchors)).toEqual([...anchorsIn(line, anchors)]);
  });
});
