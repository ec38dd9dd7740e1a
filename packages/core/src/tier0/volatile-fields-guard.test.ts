import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractVolatile } from './volatile-fields.js';

/** The maskable-values pattern as first written, guarded by any hex digit or `#`. */
const REFERENCE = new RegExp(
  `(?=[0-9a-fA-F#])(?:${[
    String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`,
    String.raw`\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b`,
    String.raw`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`,
    String.raw`\b[0-9a-fA-F]{16,}\b`,
    String.raw`\b1\d{9,18}\b`,
    String.raw`(?=\d)(?<="(?:ts|[A-Za-z_]*(?:[Tt]ime[A-Za-z_]*|_ts|Ts|TS|At|_at))"[ \t]{0,4}:[ \t]{0,4})\d{9,19}\b`,
    '#',
  ]
    .map((p) => `(?:${p})`)
    .join('|')})`,
  'g',
);

describe('extractVolatile guard', () => {
  it('lifts exactly what the pattern guarded by every hex digit lifts', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '2024-01-02T03:04:05.123Z',
        '03:04:05',
        '550e8400-e29b-41d4-a716-446655440000',
        'deadbeefcafebabe0123',
        '1700000000123',
        '"startTime": 1700000000',
        '"ts":1700000000',
        '#',
        'abc',
        'xdeadbeefcafebabe01',
        '_ffffffffffffffff',
      ),
      fc.string({
        unit: fc.constantFrom('a', 'f', 'F', 'g', '1', '0', '-', ':', ' ', '_', '"', '\n'),
        maxLength: 20,
      }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const fields: string[] = [];
        let lifted = 0;
        const stable = text.replace(REFERENCE, (value: string) => {
          fields.push(value);
          if (value !== '#') lifted++;
          return '#';
        });
        const expected = lifted === 0 ? { stable: text, fields: [] } : { stable, fields };
        expect(extractVolatile(text, { tokensAndRequestIds: false })).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
