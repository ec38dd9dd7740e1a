import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  extractVolatile,
  formatVolatileTable,
  parseVolatileTable,
  restoreVolatile,
} from './volatile-fields.js';

/** The masker an external visibility check applies to both texts (times, UUIDs, long ids, numbers → #). */
const CHECK_MASK =
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b|\b[0-9a-fA-F]{16,}\b|\b\d{5,}\b/g;
const masked = (s: string): string => s.replace(CHECK_MASK, '#');

describe('extractVolatile', () => {
  it('lifts timestamps, UUIDs, ids and epoch fields, leaving one # each', () => {
    const text = [
      '2024-01-02T03:04:05.123Z GET /a 550e8400-e29b-41d4-a716-446655440000',
      '2024-01-02 03:04:05,123 INFO started',
      'Jan  2 03:04:05 host sshd[42]: ok',
      '{"ts": 1700000000000, "createdAt": 1700000000, "count": 42}',
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
      'x-request-id: 7f3a2b9c1d req_8fj2k3l4mn request_id=abc123def',
    ].join('\n');
    const { stable, fields } = extractVolatile(text);
    expect(stable).toBe(
      [
        '# GET /a #',
        '# INFO started',
        'Jan  2 # host sshd[42]: ok',
        '{"ts": #, "createdAt": #, "count": 42}',
        'commit # token=#',
        'x-request-id: # req_# request_id=#',
      ].join('\n'),
    );
    expect(fields).toStrictEqual([
      '2024-01-02T03:04:05.123Z',
      '550e8400-e29b-41d4-a716-446655440000',
      '2024-01-02 03:04:05,123',
      '03:04:05',
      '1700000000000',
      '1700000000',
      '9fceb02d0ae598e95dc970b74767f19372d61af8',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
      '7f3a2b9c1d',
      '8fj2k3l4mn',
      'abc123def',
    ]);
    expect(restoreVolatile(stable, fields)).toBe(text);
  });

  it('lists a # of the original as a field, and leaves text without volatile values untouched', () => {
    const withHash = extractVolatile('PR #12 merged at 12:00:01');
    expect(withHash).toStrictEqual({ stable: 'PR #12 merged at #', fields: ['#', '12:00:01'] });
    expect(restoreVolatile(withHash.stable, withHash.fields)).toBe('PR #12 merged at 12:00:01');
    expect(extractVolatile('# heading\nno values here')).toStrictEqual({
      stable: '# heading\nno values here',
      fields: [],
    });
    expect(restoreVolatile('# heading', [])).toBe('# heading');
  });

  it('keeps every line recognisable to a check that masks volatile values', () => {
    const line =
      '2022-06-15T23:33:46.1952942Z FAILED test_x (id 0123456789abcdef0123) at 10:11:12.5 after 123456 ms';
    const { stable } = extractVolatile(line);
    expect(masked(stable)).toBe(masked(line));
  });

  it('refuses to restore with the wrong number of fields', () => {
    expect(() => restoreVolatile('# and #', ['a'])).toThrow(/more # marks/);
    expect(() => restoreVolatile('#', ['a', 'b'])).toThrow(/2 fields for 1/);
  });

  const fragment = fc.constantFrom(
    '2024-01-02T03:04:05Z',
    '2024-01-02 03:04:05,123',
    '03:04:05',
    '550e8400-e29b-41d4-a716-446655440000',
    '0123456789abcdef',
    '1700000000000',
    '"ts": 1700000000',
    'eyJhbGciOi.eyJzdWIi.sig',
    'req_abcdefgh12',
    'request_id=abc123def',
    '#',
    ' ',
    '\n',
    ':',
    '-',
    '12',
    'ab',
    'x-request-id: ',
    'ERROR',
  );
  const text = fc
    .array(fc.oneof(fragment, fc.string({ maxLength: 3 })), { maxLength: 8 })
    .map((a) => a.join(''));

  it('restores exactly what it extracted (property, 10,000 small inputs)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const { stable, fields } = extractVolatile(t);
        expect(restoreVolatile(stable, fields)).toBe(t);
      }),
      { numRuns: 10_000 },
    );
  });

  it('round-trips the trailing table (property)', () => {
    const value = fc.oneof(
      fragment,
      fc.string({ maxLength: 6 }).filter((s) => !/[\n\r]/.test(s)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        fc.array(value, { maxLength: 8 }),
        (body, fields) => {
          const lines = [...body, ...formatVolatileTable(fields)];
          expect(parseVolatileTable(lines)).toStrictEqual({ fields, lineCount: fields.length + 1 });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('writes consecutive timestamps as the part that changed', () => {
    expect(
      formatVolatileTable([
        '2022-06-15T23:33:46.1952942Z',
        '2022-06-15T23:33:46.1955939Z',
        '#',
        '2022-06-15T23:33:46.1955939Z',
        '^x',
      ]),
    ).toStrictEqual([
      '[5 values for the # marks above, in order]',
      '2022-06-15T23:33:46.1952942Z',
      '^5939Z',
      '#',
      '^',
      '\\^x',
    ]);
  });
});

describe('extractVolatile against the plain alternation', () => {
  // The patterns without the leading lookaheads that speed the scan: the lookaheads must change no match.
  const parts = {
    iso: String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`,
    clock: String.raw`\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b`,
    uuid: String.raw`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`,
    hex: String.raw`\b[0-9a-fA-F]{16,}\b`,
    epoch: String.raw`\b1\d{9,18}\b`,
    jwt: String.raw`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`,
    req: String.raw`(?<=\breq_)[A-Za-z0-9]{8,}\b`,
    keyed: String.raw`(?<=\b(?:[Xx]-[Rr]equest-[Ii][Dd]|[Rr]equest[_-]?[Ii][Dd])["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)[A-Za-z0-9][A-Za-z0-9._:-]{5,}`,
    timeField: String.raw`(?<="(?:ts|[A-Za-z_]*(?:[Tt]ime[A-Za-z_]*|_ts|Ts|TS|At|_at))"[ \t]{0,4}:[ \t]{0,4})\d{9,19}\b`,
  };
  const plain = (ps: string[]): RegExp => new RegExp(ps.map((p) => `(?:${p})`).join('|'), 'g');
  const all = plain([...Object.values(parts), '#']);
  const maskable = plain([parts.iso, parts.clock, parts.uuid, parts.hex, parts.epoch, parts.timeField, '#']);
  const reference = (text: string, pattern: RegExp): { stable: string; fields: string[] } => {
    const fields: string[] = [];
    const stable = text.replace(pattern, (v: string) => {
      fields.push(v);
      return '#';
    });
    return fields.some((f) => f !== '#') ? { stable, fields } : { stable: text, fields: [] };
  };
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '2024-05-01T12:00:00.123Z',
          '12:34:56',
          '1700000000000',
          'deadbeefcafebabe01',
          '"ts": ',
          '"createdAt":',
          'request_id=',
          'X-Request-Id: ',
          'req_',
          'eyJhbGciOi.eyJzdWIiOi.sig',
          '#',
          ' ',
          '\n',
          'a',
          '1',
          'f',
          '-',
          ':',
          '"',
          '_',
          '123e4567-e89b-12d3-a456-426614174000',
        ),
        fc.stringMatching(/^[0-9a-f:. "_-]{0,12}$/),
      ),
      { maxLength: 30 },
    )
    .map((p) => p.join(''));

  it('lifts exactly what the plain patterns match', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(extractVolatile(t)).toEqual(reference(t, all));
        expect(extractVolatile(t, { tokensAndRequestIds: false })).toEqual(reference(t, maskable));
      }),
      { numRuns: 1000 },
    );
  });
});
