import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { losslessDecode, losslessEncode } from './lossless.js';

const log = `${Array.from(
  { length: 40 },
  (_, i) =>
    `2024-01-02T03:04:${String(i).padStart(2, '0')}.${100 + i}Z INFO [worker-${i % 3}] fetched shard ${i * 7} in ${i + 3} ms`,
).join('\n')}\nERROR shard 99 checksum mismatch\n`;

describe('losslessEncode', () => {
  it('folds a log and decodes it byte for byte', () => {
    const encoded = losslessEncode(log, 'log', undefined, { volatile: false });
    expect(encoded.transforms).toStrictEqual(['fold-lines']);
    expect(encoded.exact).toBe(true);
    expect(encoded.text.length).toBeLessThan(log.length * 0.7);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(log);
  });

  it('lifts timestamps by default when that pays, keeping every line recognisable', () => {
    const encoded = losslessEncode(log, 'log');
    expect(encoded.transforms).toStrictEqual(['volatile', 'fold-lines']);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(log);
  });

  it('lifts volatile fields into a trailing table when asked', () => {
    const encoded = losslessEncode(log, 'log', undefined, { volatile: true });
    expect(encoded.transforms).toStrictEqual(['volatile', 'fold-lines']);
    expect(encoded.text).toContain('[40 values for the # marks above, in order]');
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(log);
  });

  it('keeps protected lines verbatim', () => {
    const lines = log.split('\n');
    const protect = new Uint8Array(lines.length);
    protect[5] = 1;
    const encoded = losslessEncode(log, 'tool_output', protect);
    expect(encoded.transforms).toContain('volatile');
    expect(encoded.text.split('\n')).toContain(lines[5]);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(log);
  });

  it('keeps CRLF line endings, and mixed endings with every \\r where it was', () => {
    const crlf = log.replaceAll('\n', '\r\n');
    const encoded = losslessEncode(crlf, 'log', undefined, { volatile: false });
    expect(encoded.transforms).toStrictEqual(['fold-lines-crlf']);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(crlf);
    const mixed = `${log}progress 10%\rprogress 20%\rprogress 30%\r\nb\r\n`;
    const folded = losslessEncode(mixed, 'log', undefined, { volatile: false });
    expect(folded.transforms).toStrictEqual(['fold-lines']);
    expect(losslessDecode(folded.text, folded.transforms)).toBe(mixed);
  });

  it('maps protection from pipeline lines (ending at \\r too) onto the lines it folds', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `step ${i} fetched shard ${i * 3} in ${i + 1} ms`);
    const text = `${lines.slice(0, 6).join('\n')}\n50%\r100%\n${lines.slice(6).join('\n')}\n`;
    const protect = new Uint8Array(14);
    protect[9] = 1; // pipeline lines: 0–5, '50%', '100%', then lines 6… — index 9 is `step 7 …`
    const encoded = losslessEncode(text, 'log', protect);
    expect(encoded.text.split('\n')).toContain(lines[7]);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(text);
  });

  it('canonicalises and tabulates JSON; decoding gives the canonical JSON', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({
      name: `n${i}`,
      id: i,
      ok: i % 2 === 0,
      tags: ['x'],
    }));
    const text = JSON.stringify({ rows, total: 10 }, null, 2);
    const encoded = losslessEncode(text, 'json');
    expect(encoded.transforms).toStrictEqual(['canonical-json', 'columnar']);
    expect(encoded.exact).toBe(false);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(canonicalJson(text));
    const withVolatile = losslessEncode(text.replace('"n1"', '"2024-01-02T03:04:05Z"'), 'json', undefined, {
      volatile: true,
    });
    expect(withVolatile.transforms).toStrictEqual(['canonical-json', 'columnar', 'volatile']);
    expect(JSON.parse(losslessDecode(withVolatile.text, withVolatile.transforms)).rows[1].name).toBe(
      '2024-01-02T03:04:05Z',
    );
  });

  it('treats unparsable "json" as lines and leaves other kinds alone', () => {
    expect(losslessEncode('{"a": 1,,}', 'json').transforms).toStrictEqual([]);
    expect(losslessEncode(log, 'source')).toStrictEqual({ text: log, transforms: [], exact: true });
    expect(losslessEncode('', 'log')).toStrictEqual({ text: '', transforms: [], exact: true });
  });

  it('round-trips any small text of any line ending (property, 10,000 cases)', () => {
    const piece = fc.constantFrom(
      'GET /a 200',
      'GET /b 200',
      '03:04:05',
      '#',
      ' ',
      '  ',
      '\t',
      'x|y',
      '<*>',
      '[2 lines: t]',
      '[repeated 2×] z',
      '\\',
      '550e8400-e29b-41d4-a716-446655440000',
      '[9 values for the # marks above, in order]',
      '^',
      '\r',
      '50%\r60%\r70%\r80%\r90%',
      "[the next 2 lines are one line's \\r-separated updates]",
      '§',
      '§1',
      '[§ shorthand: the 1 lines below define §1, used in the text after them]',
    );
    const line = fc.array(piece, { maxLength: 4 }).map((p) => p.join(''));
    const text = fc
      .tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean())
      .map(([lines, term, trailing]) => lines.join(term) + (trailing && lines.length > 0 ? term : ''));
    fc.assert(
      fc.property(
        text,
        fc.constantFrom('log', 'tool_output') as fc.Arbitrary<'log' | 'tool_output'>,
        fc.constantFrom(true, false, 'auto') as fc.Arbitrary<boolean | 'auto'>,
        fc.array(fc.boolean(), { maxLength: 12 }),
        (t, kind, volatile, bits) => {
          const protect = bits.length > 0 ? Uint8Array.from(bits, (b) => (b ? 1 : 0)) : undefined;
          const encoded = losslessEncode(t, kind, protect, { volatile, minRun: 2 });
          expect(losslessDecode(encoded.text, encoded.transforms)).toBe(t);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('removes terminal styling outside protected lines; decoding gives the plain text (property)', () => {
    const piece = fc.constantFrom(
      'FAIL',
      ' ok ',
      '\u001b[31m',
      '\u001b[1;34m',
      '\u001b[0m',
      '\u001b[m',
      '\u001b[K',
      '\u001b[2K',
      '\u001b[1A',
      '\u001b]8;;http://x\u0007',
      '/home/runner/work/app/src/',
    );
    const line = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.array(fc.boolean(), { maxLength: 30 }),
        (ls, bits) => {
          const text = ls.join('\n');
          const protect = Uint8Array.from(bits, (b) => (b ? 1 : 0));
          const encoded = losslessEncode(text, 'log', protect);
          const decoded = losslessDecode(encoded.text, encoded.transforms).split('\n');
          expect(decoded).toHaveLength(ls.length);
          for (let i = 0; i < ls.length; i++) {
            expect(decoded[i]).toBe(protect[i] === 1 ? ls[i] : ls[i]!.replace(/\u001b\[[0-9;]*[mK]/g, ''));
          }
          expect(encoded.exact).toBe(!encoded.transforms.includes('strip-styling'));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps cursor moves and hyperlinks: only colour and erase-line codes are presentation', () => {
    const text = `\u001b[1A\rlayer 1: Pulling\n\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 \u001b[32mok\u001b[0m\n`;
    const encoded = losslessEncode(text, 'log');
    expect(encoded.transforms).toContain('strip-styling');
    expect(encoded.text).toContain('\u001b[1A');
    expect(encoded.text).toContain('\u001b]8;;https://x.test\u0007');
    expect(encoded.text).not.toContain('\u001b[32m');
  });

  it('folds a line rewritten in place by a progress bar, exactly', () => {
    const updates = Array.from(
      { length: 200 },
      (_, i) => `Receiving objects: ${Math.floor(i / 2)}% (${i * 17}/3400)   `,
    );
    const text = `$ git clone x\n${updates.join('\r')}\rdone.\r\nnext\n`;
    const encoded = losslessEncode(text, 'log', undefined, { volatile: false });
    expect(encoded.text).toContain('[the next ');
    expect(encoded.text).toContain("lines are one line's \\r-separated updates]");
    expect(encoded.text.length).toBeLessThan(text.length / 3);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(text);
  });

  it('stays linear on a line of a million carriage returns (a lookbehind once rescanned them all)', () => {
    const text = `x${'\r'.repeat(1_000_000)}y\n`;
    const encoded = losslessEncode(text, 'log');
    expect(encoded.text.length).toBeLessThan(1_000);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(text);
  });

  it('writes long repeated texts once, as shorthand, and never inside protected lines', () => {
    const lines = Array.from(
      { length: 30 },
      (_, i) =>
        `at org.example.billing.service.InvoiceHandler.step${i}(/home/runner/work/billing/src/main/Invoice.java:${i})`,
    );
    const protect = new Uint8Array(lines.length);
    protect[4] = 1;
    const text = lines.join('\n');
    const encoded = losslessEncode(text, 'log', protect, { volatile: false });
    expect(encoded.transforms).toContain('aliases');
    expect(encoded.text.startsWith('[§ shorthand: the ')).toBe(true);
    expect(encoded.text.split('\n')).toContain(lines[4]);
    expect(encoded.text.length).toBeLessThan(text.length / 2);
    expect(losslessDecode(encoded.text, encoded.transforms)).toBe(text);
  });
});
