import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MASKABLE } from './volatile-fields.js';
import { scanMaskable } from './volatile-fields-scan.js';

/** Every match of the pattern, as `[start, end]` pairs. */
function byPattern(text: string): number[][] {
  return [...text.matchAll(new RegExp(MASKABLE.source, 'g'))].map((m) => [m.index, m.index + m[0].length]);
}

function byScan(text: string): number[][] {
  const found: number[][] = [];
  scanMaskable(text, (start, end) => found.push([start, end]));
  return found;
}

/** Pieces of the forms the pattern knows, whole and broken, and the characters around their edges. */
const piece = fc.oneof(
  fc.constantFrom(
    '2024-01-02T03:04:05',
    '2024-01-02 03:04:05.123Z',
    '2024-01-02T03:04:05,5+01:00',
    '2024-01-02T03:04:05+0100',
    '2024-01-02T03:04:05-01:',
    '2024-01-02T03:04:05.Z',
    '12024-01-02T03:04:05',
    '03:04:05',
    '03:04:05.123',
    '03:04:05,1_',
    '03:04:056',
    '550e8400-e29b-41d4-a716-446655440000',
    '550E8400-E29B-41D4-A716-44665544000g',
    'deadbeefcafebabe0123',
    'deadbeefcafebab',
    '1700000000123',
    '1234567890123456789',
    '12345678901234567890',
    '"ts": ',
    '"startTime":\t',
    '"created_at" :    ',
    '"updatedAt":     ',
    '"x_ts":',
    '"TS":',
    '"t":',
    '"":',
    '#',
    '\u00e9',
  ),
  fc.string({
    unit: fc.constantFrom(
      'a',
      'f',
      'F',
      'g',
      'Z',
      'T',
      '1',
      '0',
      '9',
      '-',
      ':',
      '.',
      ',',
      '+',
      ' ',
      '\t',
      '_',
      '"',
      '#',
      '\n',
    ),
    maxLength: 24,
  }),
);

describe('scanMaskable', () => {
  it('finds the matches of the maskable pattern, leftmost first', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        expect(byScan(text)).toStrictEqual(byPattern(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees on digit runs of every length around the epoch and time-field bounds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', ' ', 'x', '"ts": ', '"startTime":', '_'),
        fc.integer({ min: 0, max: 22 }),
        fc.constantFrom('', ' ', 'x', '_', '.5', ':'),
        (before, digits, after) => {
          const text = `${before}1${'0'.repeat(digits)}${after}`;
          expect(byScan(text)).toStrictEqual(byPattern(text));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
