import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analysisView } from './terminal-codes.js';

// What analysisView removes from the start of a line, written as a plain replace.
const LEADING_TIME =
  /^(?:[^\n]{0,80}?\t)?\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s|^\[\d\d:\d\d:\d\d(?:[.,]\d+)?\]\s/;
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_=>])/g;

function reference(line: string): string {
  const plain = line.replace(ESCAPES, '');
  const c = plain.charCodeAt(0);
  const tab = plain.indexOf('\t');
  const candidate = (c >= 48 && c <= 57) || c === 91 || (tab >= 0 && tab <= 80);
  return candidate ? plain.replace(LEADING_TIME, '') : plain;
}

describe('analysisView', () => {
  it('removes escape codes and a runner timestamp prefix, as a plain replace would', () => {
    const piece = fc.constantFrom(
      '2022-06-22T18:46:21.2979173Z ',
      '2022-06-22 18:46:21,5+02:00 ',
      '[2022-06-22T18:46:21Z] ',
      '[12:01:02] ',
      '[12:01:02.5]\t',
      'build\tstep\t',
      '\t',
      '\u001b[31m',
      '\u001b[0m',
      'x'.repeat(40),
      'ERROR boom',
      ' ',
      '7',
      '[',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const line = parts.join('');
        expect(analysisView(line)).toBe(reference(line));
      }),
      { numRuns: 10_000 },
    );
  });

  it('judges a very long line by its two ends', () => {
    const line = `2022-06-22T18:46:21Z ERROR ${'x'.repeat(40_000)} done`;
    const view = analysisView(line);
    expect(view.startsWith('ERROR ')).toBe(true);
    expect(view.endsWith(' done')).toBe(true);
    expect(view.length).toBeLessThan(17_000);
  });
});
