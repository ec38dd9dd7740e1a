import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ciLog } from '../validate/agent-outputs.js';
import {
  findLineNumbers,
  formatLineNumbersNote,
  type LineNumbers,
  parseLineNumbersNote,
  restoreLineNumbers,
  stripLineNumbers,
} from './line-numbers.js';
import { losslessDecode, losslessEncode } from './lossless.js';

/** Lines a numbered file is made of: code, blanks, tabs, digits at the start, stray `\r`. */
const fileLine = fc.oneof(
  fc.constantFrom('', '  return x;', '\tindented', '42\tlooks numbered', '     7\tso does this', 'a\rb'),
  fc.string({ maxLength: 30 }),
);
const gutter = fc.record({
  first: fc.integer({ min: 1, max: 2_000_000 }),
  width: fc.constantFrom(0, 3, 6),
  separator: fc.constantFrom<LineNumbers['separator']>('\t', '→'),
});
const numberedText = fc
  .tuple(
    gutter,
    fc.array(fileLine, { minLength: 3, maxLength: 60 }),
    fc.constantFrom('', '\n', '\n\n<system-reminder>\nnote\n</system-reminder>\n'),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([g, lines, trailer, eol]) => ({
    g,
    text:
      lines.map((l, i) => `${String(g.first + i).padStart(g.width)}${g.separator}${l}`).join(eol) + trailer,
  }));

describe('line-number gutters', () => {
  it("recognises Claude Code's Read numbering and cuts it off exactly", () => {
    const text =
      '     1\timport { a } from "./a";\n     2\t\n     3\texport const b = a + 1;\n\n<system-reminder>\nx\n</system-reminder>\n';
    expect(findLineNumbers(text.split('\n'))).toEqual({ first: 1, count: 3, width: 6, separator: '\t' });
    const stripped = stripLineNumbers(text)!;
    expect(stripped.text.startsWith('import { a } from "./a";\n\nexport const b')).toBe(true);
    expect(restoreLineNumbers(stripped.text, stripped.numbers)).toBe(text);
  });

  it('needs consecutive numbers in one format', () => {
    expect(findLineNumbers(['1\ta', '2\tb', '4\tc'])).toBeNull();
    expect(findLineNumbers(['     1\ta', '2\tb', '3\tc'])).toBeNull();
    expect(findLineNumbers(['1\ta', '2\tb'])).toBeNull();
    expect(findLineNumbers(['  98→a', '  99→b', ' 100→c', '101→d'])).toMatchObject({ first: 98, count: 3 });
  });

  it('strips and restores any numbered text byte for byte, whatever follows the numbered lines', () => {
    fc.assert(
      fc.property(numberedText, ({ g, text }) => {
        const stripped = stripLineNumbers(text);
        if (stripped === null) {
          expect(text).toContain('\r'); // the lone-'\r' case keeps its gutter
          return;
        }
        expect(stripped.numbers.first).toBe(g.first);
        expect(restoreLineNumbers(stripped.text, stripped.numbers)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('never takes a text it cannot give back, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const stripped = stripLineNumbers(text);
        if (stripped) expect(restoreLineNumbers(stripped.text, stripped.numbers)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('writes a note that reads back as the same gutter', () => {
    fc.assert(
      fc.property(gutter, fc.integer({ min: 3, max: 5000 }), (g, count) => {
        const numbers = { ...g, count };
        const parsed = parseLineNumbersNote(`${formatLineNumbersNote(numbers)}\nrest`);
        expect(parsed).toEqual({ numbers, body: 'rest' });
      }),
    );
  });
});

describe('losslessEncode on a numbered read', () => {
  it('decodes to the numbered text for every kind', () => {
    fc.assert(
      fc.property(
        numberedText,
        fc.constantFrom('log', 'tool_output', 'json', 'doc', 'diff'),
        ({ text }, kind) => {
          const encoded = losslessEncode(text, kind);
          expect(encoded.exact).toBe(true);
          expect(losslessDecode(encoded.text, encoded.transforms)).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('mines the numbered log as well as the plain one: the gutter costs a note, not a value per line', () => {
    const { text } = ciLog(600);
    const lines = text.slice(0, -1).split('\n');
    const numbered = lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');
    const plain = losslessEncode(lines.join('\n'), 'log');
    const read = losslessEncode(numbered, 'log');
    expect(read.transforms[0]).toBe('line-numbers');
    expect(read.transforms.slice(1)).toEqual(plain.transforms);
    expect(read.text.length).toBeLessThan(plain.text.length + 100);
    expect(losslessDecode(read.text, read.transforms)).toBe(numbered);
  });
});
