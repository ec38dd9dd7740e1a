import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { MAX_DEPTH } from './json-tree.js';

describe('canonicalJson', () => {
  it('sorts keys recursively, in every layout', () => {
    const text = '{"b": {"z": 1, "a": [ {"y": 2, "x": 3} ]}, "a": true}';
    expect(canonicalJson(text, { layout: 'compact' })).toBe('{"a":true,"b":{"a":[{"x":3,"y":2}],"z":1}}');
    expect(canonicalJson(text)).toBe(
      '{\n "a": true,\n "b": {\n  "a": [\n   {"x":3,"y":2}\n  ],\n  "z": 1\n }\n}',
    );
  });

  it('keeps numbers and strings exactly as written', () => {
    const text = '{"n": [1.50, 1e3, -0, 1E+2, 0.000], "s": "caf\\u00e9 \\"q\\" \\/", "k\\u0062": null}';
    expect(canonicalJson(text, { layout: 'compact' })).toBe(
      '{"k\\u0062":null,"n":[1.50,1e3,-0,1E+2,0.000],"s":"caf\\u00e9 \\"q\\" \\/"}',
    );
  });

  it('sorts by the decoded key in UTF-16 code-unit order and keeps duplicates in order', () => {
    expect(canonicalJson('{"b":1,"\\u0061":2,"B":3,"é":4,"a":5}', { layout: 'compact' })).toBe(
      '{"B":3,"\\u0061":2,"a":5,"b":1,"é":4}',
    );
  });

  it('returns null for anything that is not exactly one JSON value', () => {
    for (const bad of [
      '',
      '   ',
      '{"a":1,}',
      '[1,2',
      '{"a":1} {"b":2}',
      "{'a':1}",
      'NaN',
      '[01]',
      '[1.]',
      '"tab\there"',
      '{"a" 1}',
      '[1 2]',
      'nul',
      '{"a":1}\n{"a":2}',
    ]) {
      expect(canonicalJson(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('accepts scalars and surrounding whitespace', () => {
    expect(canonicalJson(' 42 ')).toBe('42');
    expect(canonicalJson('"x"\n')).toBe('"x"');
    expect(canonicalJson('[]')).toBe('[]');
  });

  it('refuses documents nested deeper than the limit instead of overflowing', () => {
    const deep = `${'['.repeat(MAX_DEPTH + 5)}${']'.repeat(MAX_DEPTH + 5)}`;
    expect(canonicalJson(deep)).toBeNull();
    const ok = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(canonicalJson(ok, { layout: 'compact' })).toBe(ok);
  });

  it('is equal in value to its input, idempotent, and independent of key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : 0);
        const canonical = canonicalJson(text);
        expect(canonical).not.toBeNull();
        expect(JSON.parse(canonical!)).toStrictEqual(JSON.parse(text));
        expect(canonicalJson(canonical!)).toBe(canonical);
        const reversed = JSON.stringify(reverseKeys(JSON.parse(text)));
        expect(canonicalJson(reversed)).toBe(canonical);
      }),
      { numRuns: 2_000 },
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines properties, so a `__proto__` key stays a key.
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}
