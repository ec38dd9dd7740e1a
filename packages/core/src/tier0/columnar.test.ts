import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { compactColumnar, expandColumnar } from './columnar.js';
import { decodeCell, encodeCell, splitRow } from './columnar-cells.js';

const users = {
  total_count: 3,
  items: [
    { id: 1, login: 'octocat', site_admin: false, score: 1.5, tags: ['a', 'b'], plan: { name: 'pro' } },
    { id: 2, login: 'hub|bot', site_admin: true, score: null, tags: [], plan: null },
    { id: 3, login: '', site_admin: false, tags: ['c'], plan: { name: 'free' }, extra: '~' },
  ],
};

describe('compactColumnar', () => {
  it('folds a record array into a header, a column line and one row per record', () => {
    const folded = compactColumnar(JSON.stringify(users, null, 2))!;
    expect(folded).toBe(
      [
        '{"items":@table1,"total_count":3}',
        '@table1 $.items 3 rows',
        'extra|id|login|plan|score|site_admin|tags',
        '~|1|octocat|{"name":"pro"}|1.5|false|["a","b"]',
        '~|2|"hub|bot"|null|null|true|[]',
        '"~"|3|""|{"name":"free"}|~|false|["c"]',
      ].join('\n'),
    );
    expect(JSON.parse(expandColumnar(folded))).toStrictEqual(users);
  });

  it('keeps numbers as written and gives back canonical JSON', () => {
    const text = '[{"a": 1.50, "b": "x"}, {"a": 1e3, "b": "\\u0079"}, {"a": -0, "b": "1"}]';
    const folded = compactColumnar(text)!;
    expect(folded).toContain('1.50|x');
    expect(folded).toContain('1e3|"\\u0079"');
    expect(folded).toContain('-0|"1"');
    expect(expandColumnar(folded)).toBe(canonicalJson(text));
  });

  it('leaves non-JSON, record-free and mostly-empty arrays alone', () => {
    expect(compactColumnar('not json')).toBeNull();
    expect(compactColumnar('[1, 2, 3]')).toBeNull();
    expect(compactColumnar('[{"a": 1}]')).toBeNull();
    const sparse = JSON.stringify([{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }]);
    expect(compactColumnar(sparse)).toBeNull();
    expect(compactColumnar('[{"a":1,"a":2},{"a":3}]')).toBeNull();
  });

  it('does not take a string that reads like a table reference for one', () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({
      x: i % 2 ? '@table1' : 'distil-ref0:@table1',
      long_key_name: i,
    }));
    const text = JSON.stringify({ note: '@table1', rows }, null, 2);
    expect(JSON.parse(expandColumnar(compactColumnar(text)!))).toStrictEqual(JSON.parse(text));
  });

  it('round-trips arbitrary record arrays to equal JSON (property)', () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('~', '|', '"', 'true', 'null', '1', '-2.5', ' x', '[1]', '{', '\\', 'a|b'),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const cell = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), scalar),
    );
    const key = fc.constantFrom('id', 'name', 'a|b', '~', 'x y', 'é', '"q"');
    const record = fc.dictionary(key, cell, { minKeys: 1, maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 2, maxLength: 6 }), fc.boolean(), (rows, wrap) => {
        const value = wrap ? { data: rows, n: rows.length } : rows;
        const text = JSON.stringify(value);
        const folded = compactColumnar(text);
        if (folded === null) return;
        expect(JSON.parse(expandColumnar(folded))).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('columnar cells', () => {
  it('writes each value so that splitting and decoding give it back', () => {
    const values = [
      '"plain"',
      '"with|bar"',
      '""',
      '"~"',
      '"true"',
      '"12"',
      '"[x"',
      '" pad"',
      '1.0',
      'null',
      '[1,"|"]',
    ];
    const row = values.map((raw) =>
      encodeCell(
        raw.startsWith('"')
          ? { type: 'scalar', raw, kind: 'string' }
          : {
              type: 'scalar',
              raw,
              kind: raw === 'null' ? 'literal' : raw.startsWith('[') ? 'literal' : 'number',
            },
      ),
    );
    const cells = splitRow(row.join('|'));
    expect(cells).toHaveLength(values.length);
    expect(cells.map((c) => (decodeCell(c) as { raw?: string } | undefined)?.raw ?? '[1,"|"]')).toStrictEqual(
      values,
    );
  });
});
