import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchoredTexts, anchorsIn, collectAnchors } from './anchors.js';
import { pathTokens } from './names.js';

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

/**
 * The definition anchoredTexts follows, over anchorsByPattern: anchors that name at most `maxLines`
 * lines, fewest first (ties in order of first appearance), each taken whole while the lines covered stay
 * within `maxLines`.
 */
function anchoredByDefinition(
  texts: readonly string[],
  repeats: Int32Array,
  anchors: ReadonlySet<string>,
  maxLines: number,
): number[] {
  const postings = new Map<string, number[]>();
  texts.forEach((text, u) => {
    for (const token of anchorsByPattern(text, anchors)) {
      if (!postings.has(token)) postings.set(token, []);
      postings.get(token)!.push(u);
    }
  });
  const lines = (us: readonly number[]): number => us.reduce((n, u) => n + repeats[u]!, 0);
  const anchored = new Array<number>(texts.length).fill(0);
  let covered = 0;
  const candidates = [...postings].filter(([, us]) => lines(us) <= maxLines);
  candidates.sort((a, b) => lines(a[1]) - lines(b[1]));
  for (const [, us] of candidates) {
    const added = lines(us.filter((u) => anchored[u] === 0));
    if (covered + added > maxLines) continue;
    for (const u of us) anchored[u] = 1;
    covered += added;
  }
  return anchored;
}

describe('anchoredTexts', () => {
  it('singles out the lines its definition does, whatever the texts, repeats and anchors', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 12 }),
        (pieces, counts, picks, maxLines) => {
          const texts = pieces.map((p) => p.join(''));
          const repeats = Int32Array.from(texts, (_, u) => counts[u] ?? 1);
          const all = texts.join(' ');
          const anchors = new Set<string>();
          for (const token of collectAnchors([all])) if (picks.includes(token.length)) anchors.add(token);
          for (let k = 0; k + 1 < picks.length; k += 2)
            anchors.add(
              all.slice(picks[k]! % (all.length + 1), (picks[k]! % (all.length + 1)) + (picks[k + 1]! % 9)),
            );
          expect([...anchoredTexts(texts, repeats, anchors, maxLines)]).toEqual(
            anchoredByDefinition(texts, repeats, anchors, maxLines),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('scans a block of several batches and a text longer than one', () => {
    const texts = Array.from(
      { length: 3000 },
      (_, u) => `step ${u}: compiled src/module_${u % 700}.ts in build_${u}`,
    );
    texts.splice(1500, 0, `${'word '.repeat(14_000)}build_42 failed`);
    const repeats = new Int32Array(texts.length).fill(1);
    const anchors = new Set([
      'build_42',
      'src/module_7.ts',
      'module_699',
      'compiled',
      'failed',
      'build_2999',
    ]);
    const anchored = anchoredTexts(texts, repeats, anchors, 20);
    expect([...anchored]).toEqual(anchoredByDefinition(texts, repeats, anchors, 20));
    // the long text and the last line are among those singled out
    expect(anchored[1500]).toBe(1);
    expect(anchored[texts.length - 1]).toBe(1);
  });
});

describe('pathTokens', () => {
  const PATH_TOKEN = /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g;
  const tokens = (text: string): string[] => {
    const found: string[] = [];
    pathTokens(text, (from, to) => found.push(text.slice(from, to)));
    return found;
  };

  it("gives the path pattern's matches, in order, whatever the text", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'Z', '_', '7', 'abcdefgh', 'x9', '.', '/', '-', ' ', ':', 'é', '\\'), {
          maxLength: 60,
        }),
        (pieces) => {
          const text = pieces.join('');
          expect(tokens(text)).toEqual([...text.matchAll(PATH_TOKEN)].map((m) => m[0]));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a long run once: an SVG path an agent wrote, as a tool call input', () => {
    const svg = (path: string): string =>
      JSON.stringify({ file_path: 'src/icon.svg', content: `<svg><path d="${path}"/></svg>` });
    const short = svg('M12.5-3.2L4.5-6.7'.repeat(3));
    // on the short one, what both patterns find (none of its tokens is too common to count)
    const byPatterns = [...short.matchAll(/[A-Za-z_]\w*|\d{3,}/g), ...short.matchAll(PATH_TOKEN)]
      .map((m) => m[0])
      .filter((token) => token.length >= 4);
    expect(collectAnchors([short])).toEqual(new Set(byPatterns));
    // 204 KB of `[\w.-]` with no `/`: the pattern backtracks over it from every start, for minutes
    expect(collectAnchors([svg('M12.5-3.2L4.5-6.7'.repeat(12_000))])).toEqual(collectAnchors([short]));
  });
});
