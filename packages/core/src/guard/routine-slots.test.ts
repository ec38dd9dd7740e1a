import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GuardReason, guardLines } from './guard-lines.js';
import { hasStrongSignal, isSurprising, weakWord } from './surprise.js';

const surprised = (lines: readonly string[]): boolean[] =>
  [...guardLines(lines, { kind: 'log' })].map((r) => (r & GuardReason.surprise) !== 0);

const VERBS = ['reads', 'parses', 'joins', 'splits', 'keeps', 'writes'];
const OBJECTS = ['tabs', 'nested braces', 'long lines', 'unicode names', 'empty input', 'CRLF endings'];

/** A passing test of a node:test-style listing; `i` varies the name and the timing. */
const passing = (i: number, object = OBJECTS[i % OBJECTS.length]!): string =>
  `  • ${VERBS[i % VERBS.length]} ${object} (${(i % 7) + 0.25}ms)`;

describe('surprise relative to the block', () => {
  it('is not raised by a weak word that many passing tests of the block have in their names', () => {
    const lines = Array.from({ length: 40 }, (_, i) => passing(i));
    for (const i of [7, 15, 23]) lines[i] = passing(i, 'a missing file');
    expect(isSurprising(lines[7]!)).toBe(true);
    const flags = surprised(lines);
    expect(flags.some(Boolean)).toBe(false);
  });

  it('keeps a weak word that only one or two lines of the frame hold: that is news', () => {
    const lines = Array.from({ length: 40 }, (_, i) => passing(i));
    lines[7] = passing(7, 'a missing file');
    lines[23] = passing(23, 'invalid escapes');
    lines[30] = passing(30, 'invalid escapes');
    const flags = surprised(lines);
    expect([flags[7], flags[23], flags[30]]).toEqual([true, true, true]);
  });

  it('still guards the failing test, whose constant part differs, and strong words anywhere', () => {
    const lines = Array.from({ length: 40 }, (_, i) => passing(i));
    for (const i of [5, 9, 20]) lines[i] = passing(i, 'a missing file');
    lines[12] = '  ✖ reads a missing file (1.9ms)';
    lines[30] = passing(30, 'the error path');
    lines[31] = passing(31, 'a timeout');
    const flags = surprised(lines);
    expect(flags[5]).toBe(false);
    expect(flags[12]).toBe(true);
    expect(flags[30]).toBe(true);
    expect(flags[31]).toBe(true);
  });

  it('keeps weak words as findings where the frame is not routine: few lines, or mostly surprising', () => {
    const few = Array.from({ length: 6 }, (_, i) => passing(i, i % 2 === 0 ? 'a missing file' : 'tabs'));
    expect(surprised(few).filter(Boolean).length).toBe(3);
    const mostly = Array.from({ length: 20 }, (_, i) =>
      i % 3 === 0 ? passing(i) : `  • ${VERBS[i % VERBS.length]} invalid input ${i} (1ms)`,
    );
    expect(surprised(mostly).filter(Boolean).length).toBe(13);
  });

  it('keeps a weak word that sits in the constant part of the frame', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `cache entry ${i} restored (${i}ms)`);
    lines.push('cache entry missing, rebuilding (3ms)');
    // its frame is `cache … (Nms)`, but what differs is exactly what it says: "missing"
    const flags = surprised(lines);
    expect(flags.at(-1)).toBe(true);
    expect(flags.slice(0, -1).some(Boolean)).toBe(false);
  });

  it('reads the frame past a leading timestamp', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `2026-01-02T03:04:${10 + i}Z ${passing(i).trim()}`);
    for (const i of [4, 8, 12]) lines[i] = `2026-01-02T03:04:14Z ${passing(i, 'a missing file').trim()}`;
    expect(surprised(lines).some(Boolean)).toBe(false);
  });

  it('never clears a strong signal, nor a line of a frame that is not mostly quiet', () => {
    const names = fc.oneof(
      { arbitrary: fc.constantFrom('tabs', 'unicode names', 'long lines'), weight: 6 },
      { arbitrary: fc.constantFrom('a missing file', 'invalid input'), weight: 2 },
      { arbitrary: fc.constantFrom('the error path', 'a crash on exit'), weight: 1 },
    );
    let spared = 0;
    const mark = fc.oneof(
      { arbitrary: fc.constant('•'), weight: 4 },
      { arbitrary: fc.constantFrom('✖', 'ok', '▶'), weight: 1 },
    );
    const line = fc.tuple(mark, names, fc.nat(9)).map(([mark, name, n]) => `${mark} ${name} (${n}ms)`);
    fc.assert(
      fc.property(fc.array(line, { minLength: 10, maxLength: 80, size: 'max' }), (lines) => {
        const flags = surprised(lines);
        lines.forEach((text, i) => {
          if (hasStrongSignal(text)) expect(flags[i]).toBe(isSurprising(text));
          // a line the block-relative rule spares always surprised on its own
          if (!flags[i] && isSurprising(text)) {
            const frame = lines.filter((l) => l.split(' ')[0] === text.split(' ')[0]);
            expect(frame.length).toBeGreaterThanOrEqual(10);
            expect(frame.filter((l) => isSurprising(l)).length * 2).toBeLessThan(frame.length);
            // and the word it holds is shared by more than two lines of the frame
            const word = weakWord(text)!;
            expect(frame.filter((l) => weakWord(l) === word).length).toBeGreaterThan(2);
            spared++;
          }
        });
      }),
      { numRuns: 300 },
    );
    // the generator does reach the rule
    expect(spared).toBeGreaterThan(0);
  });
});
