import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  foldLogLines,
  foldRepeats,
  foldTemplateRuns,
  unfoldLines,
  unfoldRepeats,
  unfoldTemplateRuns,
} from './line-fold.js';

const sshLog = [
  'Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186',
  'Dec 10 06:55:48 LabSZ sshd[24201]: Invalid user test from 173.234.31.187',
  'Dec 10 06:56:01 LabSZ sshd[24206]: Invalid user admin  from 10.0.0.1',
  'Dec 10 06:56:13 LabSZ sshd[24208]: Invalid user oracle from 173.234.31.186',
  'Dec 10 07:07:38 LabSZ sshd[24227]: error: Received disconnect from 5.36.59.76: 3 [preauth]',
];

describe('foldTemplateRuns', () => {
  it('folds a run of one template into a template line and a table of its variables', () => {
    const lines = [sshLog[0]!, sshLog[1]!, sshLog[3]!, sshLog[4]!];
    const folded = foldTemplateRuns(lines);
    expect(folded).toStrictEqual([
      '[3 lines: Dec 10 06:<*> LabSZ sshd[<*>]: Invalid user <*> from 173.234.31.<*>]',
      '55:46|24200|webmaster|186',
      '55:48|24201|test|187',
      '56:13|24208|oracle|186',
      sshLog[4],
    ]);
    expect(unfoldTemplateRuns(folded)).toStrictEqual(lines);
  });

  it('keeps whitespace runs exactly', () => {
    const folded = foldTemplateRuns(sshLog.slice(0, 4));
    expect(unfoldTemplateRuns(folded)).toStrictEqual(sshLog.slice(0, 4));
  });

  it('never folds a protected line', () => {
    const protect = new Uint8Array(sshLog.length);
    protect[1] = 1;
    const folded = foldTemplateRuns(sshLog, { protect, minRun: 2 });
    expect(folded).toContain(sshLog[1]);
    expect(unfoldTemplateRuns(folded)).toStrictEqual(sshLog);
  });

  it('escapes input lines that look like fold headers', () => {
    const lines = ['[3 lines: not a header]', '\\[repeated 2×] x', '[repeated 2×] y', 'plain'];
    const folded = foldLogLines(lines);
    expect(folded).toStrictEqual([
      '\\[3 lines: not a header]',
      '\\\\[repeated 2×] x',
      '\\[repeated 2×] y',
      'plain',
    ]);
    expect(unfoldLines(folded)).toStrictEqual(lines);
  });

  it('picks another cell separator when a value holds |', () => {
    const lines = [1, 2, 3, 4].map(
      (i) => `scheduled job ${'wxyz'[i - 1]}|${i} on the shared worker pool took ${i + 2} ms`,
    );
    const folded = foldTemplateRuns(lines, { clusterOf: new Int32Array(4) });
    expect(folded[0]).toBe(
      '[4 lines, cells split by "¦": scheduled job <*> on the shared worker pool took <*> ms]',
    );
    expect(folded[1]).toBe('w|1¦3');
    expect(unfoldTemplateRuns(folded)).toStrictEqual(lines);
  });
});

describe('group folds and block references', () => {
  it('folds a group of lines that repeats as a unit', () => {
    const pairs = Array.from({ length: 4 }, (_, i) => [
      `Downloading: https://repo/maven/lib${i}/1.${i}/lib${i}-1.${i}.jar`,
      `Downloaded: https://repo/maven/lib${i}/1.${i}/lib${i}-1.${i}.jar (${i + 3} KB at ${i + 10}.5 KB/sec)`,
    ]);
    const lines = ['Sonar', ...pairs.flat()];
    const folded = foldLogLines(lines);
    expect(folded[1]).toBe('[4 repeats of the next 2 lines; one row of values per repeat follows]');
    expect(folded[2]).toBe('Downloading: https://repo/maven/<*>.jar');
    expect(unfoldLines(folded)).toStrictEqual(lines);
  });

  it('points back to a block of lines seen earlier', () => {
    const report = [
      'Tests run: 5, Failures: 1, Errors: 0, Skipped: 0',
      'FAILED testParse(ParserTest)',
      'expected <1> but was <2>',
      'at ParserTest.java:42',
    ];
    const lines = ['first run', ...report, 'retrying the failed tests once more', ...report, 'done'];
    const folded = foldLogLines(lines);
    expect(folded).toContain('[the 4 lines starting "Tests run: 5, Failures: " again]');
    expect(unfoldLines(folded)).toStrictEqual(lines);
  });

  it('tells apart lines whose hashes collide', () => {
    // 'line 1rnw' and 'line ipba' have the same 32-bit FNV-1a hash, which lines are interned by
    const block = ['alpha beta gamma', 'delta epsilon', 'zeta eta theta'];
    const lines = ['line 1rnw', ...block, 'other', 'line ipba', ...block];
    const folded = foldLogLines(lines);
    expect(folded).toContain('line ipba');
    expect(unfoldLines(folded)).toStrictEqual(lines);
    // the same block after an equal line is a reference
    expect(foldLogLines(['line 1rnw', ...block, 'other', 'line 1rnw', ...block])).toContain(
      '[the 4 lines starting "line 1rnw" again]',
    );
  });

  it('never points into protected lines', () => {
    const block = ['alpha one two three', 'beta four five six', 'gamma seven eight nine'];
    const lines = [...block, 'x', ...block];
    const protect = new Uint8Array(lines.length);
    protect[5] = 1;
    const folded = foldLogLines(lines, { protect });
    expect(folded).toContain('beta four five six');
    expect(unfoldLines(folded)).toStrictEqual(lines);
  });
});

describe('foldRepeats', () => {
  it('folds identical consecutive lines', () => {
    const lines = [
      'a',
      'retrying connection to db',
      'retrying connection to db',
      'retrying connection to db',
      'b',
    ];
    const folded = foldRepeats(lines);
    expect(folded).toStrictEqual(['a', '[repeated 3×] retrying connection to db', 'b']);
    expect(unfoldRepeats(folded)).toStrictEqual(lines);
  });

  it('does not fold protected repeats', () => {
    const lines = ['ERROR disk full', 'ERROR disk full', 'ERROR disk full'];
    expect(foldRepeats(lines, { protect: new Uint8Array([0, 1, 0]) })).toStrictEqual(lines);
  });
});

describe('fold round trip (property)', () => {
  // Small lines from a few shapes, with whitespace runs, tabs, `|`, `<*>` and header look-alikes.
  const word = fc.constantFrom(
    'GET',
    'ok',
    'user',
    'x|y',
    '<*>',
    '[2',
    'lines:',
    '\\',
    '[repeated',
    '2×]',
    '42',
    '7.5',
    'a-1',
    '',
  );
  const space = fc.constantFrom(' ', '  ', '\t', ' \t ');
  const line = fc
    .array(fc.tuple(word, space), { maxLength: 4 })
    .chain((parts) => fc.constantFrom('', ' ').map((lead) => lead + parts.map(([w, s]) => w + s).join('')));
  // A line rewritten in place: its updates, from the same shapes, joined by carriage returns.
  const rewritten = fc
    .array(fc.oneof(line, fc.constantFrom('50% done', '60% done', '70% done')), {
      minLength: 4,
      maxLength: 12,
    })
    .map((updates) => updates.join('\r'));
  const single = fc.oneof(
    line,
    rewritten,
    fc.constantFrom(
      'same line',
      'same line',
      '[3 lines: t]',
      '[the 3 lines starting "x" again]',
      "[the next 2 lines are one line's \\r-separated updates]",
    ),
  );
  // Blocks that come back (for back-references) and pairs that alternate (for group folds).
  const chunk = fc.oneof(
    single.map((l) => [l]),
    fc.array(single, { minLength: 3, maxLength: 4 }).map((b) => [...b, 'z', ...b]),
    fc.tuple(single, single).map(([a, b]) => [a, b, a, b, a, b]),
  );
  const lines = fc.array(chunk, { maxLength: 4 }).map((chunks) => chunks.flat());

  it('unfold(fold(lines)) gives back the lines byte for byte, with or without protection', () => {
    fc.assert(
      fc.property(
        lines,
        fc.array(fc.boolean(), { maxLength: 12 }),
        fc.integer({ min: 2, max: 4 }),
        (ls, bits, minRun) => {
          const protect = Uint8Array.from(ls, (_, i) => (bits[i] ? 1 : 0));
          const folded = foldLogLines(ls, { protect, minRun });
          expect(unfoldLines(folded)).toStrictEqual(ls);
          expect(unfoldLines(foldLogLines(ls, { protect, minRun, overwrites: true }))).toStrictEqual(ls);
          expect(unfoldTemplateRuns(foldTemplateRuns(ls, { minRun }))).toStrictEqual(ls);
          expect(unfoldRepeats(foldRepeats(ls, { protect }))).toStrictEqual(ls);
          // A protected line is never inside a fold: it appears verbatim (or escaped) in the output.
          ls.forEach((l, i) => {
            if (protect[i] === 1) expect(folded.includes(l) || folded.includes(`\\${l}`)).toBe(true);
          });
        },
      ),
      { numRuns: 10_000 },
    );
    // 10,000 cases take ~2 s alone and over 5 s on a loaded 2-core machine: the bound is for the load.
  }, 30_000);
});

describe('lines rewritten in place', () => {
  it('folds the updates of a progress line under one header and gives the line back exactly', () => {
    const updates = Array.from({ length: 40 }, (_, i) => `Downloading layer ${i * 512}kB/20480kB`);
    const line = `${updates.join('\r')}\rdone`;
    const folded = foldLogLines(['$ docker pull x', line, 'next'], { overwrites: true });
    expect(folded).toStrictEqual([
      '$ docker pull x',
      "[the next 42 lines are one line's \\r-separated updates]",
      '[40 lines: Downloading layer <*>/20480kB]',
      ...updates.map((_, i) => `${i * 512}kB`),
      'done',
      'next',
    ]);
    expect(unfoldLines(folded)).toStrictEqual(['$ docker pull x', line, 'next']);
  });

  it('folds runs and updates of hundreds of thousands of lines (no argument-list overflow)', () => {
    const lines = Array.from({ length: 150_000 }, (_, i) => `fetched shard ${i} in ${i % 97} ms`);
    expect(unfoldLines(foldLogLines(lines))).toStrictEqual(lines);
    const progress = lines.join('\r');
    const folded = foldLogLines([progress], { overwrites: true });
    expect(folded.length).toBeGreaterThan(150_000);
    expect(unfoldLines(folded)).toStrictEqual([progress]);
  });

  it('leaves a line with few updates, or a protected one, as it is', () => {
    const few = 'a\rb\rc\r';
    expect(foldLogLines([few], { overwrites: true })).toStrictEqual([few]);
    const many = Array.from({ length: 20 }, (_, i) => `step ${i} of 20`).join('\r');
    expect(foldLogLines([many], { overwrites: true, protect: new Uint8Array([1]) })).toStrictEqual([many]);
  });
});
