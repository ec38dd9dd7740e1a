import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalEscapes } from './json-literal.js';
import { PathPatterns, scanJson } from './json-scan.js';

const NONE = new PathPatterns([]);

/** Characters that stress the escaping rules, and long runs of plain text (lifted strings are ≥ 256 bytes). */
const tricky = fc.constantFrom(
  'a',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001b',
  '\u007f',
  'é',
  '世',
  '😀',
  '\u2028',
  '\ud800',
  'x'.repeat(120),
);
const text = fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join(''));
const key = fc.oneof(fc.constantFrom('role', 'content', 'type', 'text', 'a', '0', '12', '__x'), text);
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.constantFrom(0, -1, 1.5, 1e21, 2 ** 53, -0.000001, true, false, null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** The same JSON written another way: whitespace, `\/`, `\u` escapes, other number spellings. */
function respell(canonical: string, seed: number): string {
  let out = '';
  let inString = false;
  let n = seed;
  const roll = (): number => {
    n = (n * 1103515245 + 12345) % 2147483648;
    return n % 7;
  };
  for (let i = 0; i < canonical.length; i++) {
    const c = canonical[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + canonical[++i]!;
        continue;
      }
      if (c === '"') inString = false;
      else if (c === '/' && roll() === 0) {
        out += '\\/';
        continue;
      } else if (c === 'é' && roll() < 3) {
        out += '\\u00e9';
        continue;
      } else if (c === 'a' && roll() === 0) {
        out += '\\u0061';
        continue;
      }
      out += c;
      continue;
    }
    if (c === '"') inString = true;
    if ((c === ',' || c === ':' || c === '[' || c === '{') && roll() === 0) out += c + ' \n';
    else out += c;
  }
  return out;
}

/** Checks one body; returns whether the scan read it (null is allowed, but should be rare). */
function check(raw: Buffer): boolean {
  let expected: unknown;
  try {
    expected = JSON.parse(raw.toString('utf8'));
  } catch {
    expect(scanJson(raw, NONE)).toBeNull();
    return false;
  }
  const scanned = scanJson(raw, NONE);
  if (!scanned) return false;
  expect(scanned.value).toEqual(expected);
  if (scanned.canonical) expect(Buffer.from(JSON.stringify(scanned.value)).equals(raw)).toBe(true);
  return true;
}

describe('scanJson', () => {
  it('reads what JSON.parse reads, and calls a body canonical only when JSON.stringify gives it back', () => {
    let read = 0;
    fc.assert(
      fc.property(json, fc.nat(), (value, seed) => {
        const canonical = JSON.stringify(value);
        if (check(Buffer.from(canonical))) read++;
        if (check(Buffer.from(respell(canonical, seed)))) read++;
      }),
      { numRuns: 1500 },
    );
    // Null (a fallback to JSON.parse) is only for duplicate keys: fast-check's dictionaries have none.
    expect(read).toBe(3000);
    // A `__proto__` key is declined on purpose (the caller falls back to JSON.parse); jsonValue makes one
    // now and then (~1 run in 60 of this property failed on it).
    const anyJson = fc
      .jsonValue({ maxDepth: 3, stringUnit: 'binary' })
      .filter((value) => !JSON.stringify(value).includes('"__proto__"'));
    fc.assert(
      fc.property(anyJson, (value) => {
        expect(check(Buffer.from(JSON.stringify({ value, tail: 'z'.repeat(260) })))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('finds typical JSON.stringify output canonical', () => {
    const plain = fc.dictionary(
      fc.constantFrom('role', 'content', 'type', 'text', 'id'),
      fc.oneof(
        text.filter((t) => !t.includes('\ud800')),
        fc.integer(),
        fc.boolean(),
      ),
    );
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 6 }), (items) => {
        const scanned = scanJson(Buffer.from(JSON.stringify({ model: 'm', items })), NONE);
        expect(scanned?.canonical).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts what JSON.parse refuses (cut, corrupted and invalid bodies)', () => {
    fc.assert(
      fc.property(json, fc.nat(), fc.integer({ min: 0, max: 255 }), (value, at, byte) => {
        const raw = Buffer.from(JSON.stringify({ v: value, tail: 'x'.repeat(300) }));
        check(raw.subarray(0, at % raw.length));
        const corrupted = Buffer.from(raw);
        corrupted[at % raw.length] = byte;
        check(corrupted);
      }),
      { numRuns: 1500 },
    );
    for (const bad of [
      '',
      ' ',
      '{"a":1,}',
      '[1,]',
      '{"a" 1}',
      '"abc',
      '{"a":"\u0001"}',
      'nul',
      '01',
      '{"a":1}x',
    ])
      check(Buffer.from(bad));
    const control = `{"a":"${'y'.repeat(300)}\u0001"}`;
    expect(scanJson(Buffer.from(control), NONE)).toBeNull();
  });

  it('records the byte range of every watched path', () => {
    const patterns = new PathPatterns([['messages', '*', 'content'], ['tools']]);
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'user', content: [{ type: 'text', text: 'é'.repeat(200) }] },
        { content: 'x'.repeat(400), role: 'user' },
      ],
      tools: [],
    };
    const raw = Buffer.from(JSON.stringify(body));
    const scanned = scanJson(raw, patterns)!;
    expect(scanned.value).toEqual(body);
    expect(scanned.canonical).toBe(true);
    const at = (path: (string | number)[]) => {
      const range = scanned.rangeOf(path)!;
      return JSON.parse(raw.toString('utf8', range.start, range.end));
    };
    expect(at(['messages', 0, 'content'])).toBe('hi');
    expect(at(['messages', 1, 'content'])).toEqual(body.messages[1]!.content);
    expect(at(['messages', 2, 'content'])).toBe('x'.repeat(400));
    expect(at(['tools'])).toEqual([]);
    expect(scanned.rangeOf(['model'])).toBeUndefined();
  });

  it('declines duplicate and __proto__ keys, leaving them to JSON.parse', () => {
    expect(scanJson(Buffer.from('{"a":1,"a":2}'), NONE)).toBeNull();
    expect(scanJson(Buffer.from('{"__proto__":{"x":1}}'), NONE)).toBeNull();
  });
});

describe('canonicalEscapes', () => {
  it('accepts exactly the escapes JSON.stringify writes', () => {
    for (let code = 0; code < 0x80; code++) {
      const char = String.fromCharCode(code);
      const written = JSON.stringify(char).slice(1, -1);
      expect(canonicalEscapes(written)).toBe(true);
      const spelled = `\\u${code.toString(16).padStart(4, '0')}`;
      expect(canonicalEscapes(spelled)).toBe(spelled === written);
    }
    expect(canonicalEscapes('\\\\u0041')).toBe(true);
    expect(canonicalEscapes('\\\\/')).toBe(true);
    expect(canonicalEscapes('\\/')).toBe(false);
    expect(canonicalEscapes('\\u001B')).toBe(false);
    expect(canonicalEscapes('\\ud83d\\ude00')).toBe(false);
  });
});
