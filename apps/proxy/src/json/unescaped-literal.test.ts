import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalEscapes } from './json-literal.js';
import { unescapedLiteral } from './unescaped-literal.js';

/** What decoding means: the literal's UTF-8 as a string, parsed; its escapes checked as text. */
function parsed(raw: Buffer): { text: string; canonical: boolean } {
  const literal = raw.toString('utf8');
  return { text: JSON.parse(literal) as string, canonical: canonicalEscapes(literal) };
}

/**
 * `text` as a JSON literal, written as JSON.stringify does but for the characters at `picks`, escaped as
 * JSON allows and JSON.stringify never writes: `\/`, or `\u` with hex in the case `upper` says.
 */
function literalOf(text: string, picks: readonly number[], upper: boolean): string {
  const chars = [...text];
  const at = new Set(picks.map((p) => p % Math.max(1, chars.length)));
  const out = chars.map((char, i) => {
    if (!at.has(i)) return JSON.stringify(char).slice(1, -1);
    if (char === '/') return '\\/';
    return Array.from({ length: char.length }, (_, k) => {
      const hex = char.charCodeAt(k).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    }).join('');
  });
  return `"${out.join('')}"`;
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      '/',
      '\n',
      '\t',
      '"',
      '\\',
      '\u0001',
      '\u001f',
      'é',
      '😀',
      '\ud800',
      '\udc00',
      // where UTF-8 takes one byte more
      '\u007f',
      '\u0080',
      '\u07ff',
      '\u0800',
      '\uffff',
      '\u{10000}',
    ),
    maxLength: 60,
  }),
);

describe('unescapedLiteral', () => {
  it('decodes as JSON.parse does, with canonicalEscapes’ verdict, or leaves the literal to it', () => {
    fc.assert(
      fc.property(anyText, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (text, picks, upper) => {
        const literal = literalOf(text, picks, upper);
        const raw = Buffer.from(`[${literal}]`);
        const decoded = unescapedLiteral(raw, 1, raw.length - 1);
        const expected = parsed(raw.subarray(1, raw.length - 1));
        expect(expected.text).toBe(text);
        // only a lone surrogate (which UTF-8 cannot hold) is left to the parser
        if (text.isWellFormed()) expect(decoded).not.toBeNull();
        if (decoded) expect(decoded).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('on any bytes between two quotes, decodes as JSON.parse does or leaves them to it, and never takes what it refuses', () => {
    // bytes that make escapes, quotes, control characters and UTF-8 (whole, cut short, surrogate-coded)
    const byte = fc.constantFrom(
      0x5c,
      0x22,
      0x75,
      0x6e,
      0x2f,
      0x74,
      0x62,
      0x30,
      0x31,
      0x38,
      0x41,
      0x44,
      0x61,
      0x64,
      0x66,
      0x78,
      0x20,
      0x01,
      0x1f,
      0xc3,
      0xa9,
      0xe2,
      0x82,
      0xac,
      0xed,
      0xa0,
      0x80,
      0xf0,
      0x9f,
      0x98,
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (bytes) => {
        const raw = Buffer.from([0x22, ...bytes, 0x22]);
        let expected: { text: string; canonical: boolean } | null = null;
        try {
          expected = parsed(raw);
        } catch {
          // not a JSON string: the unescaper must refuse it too
        }
        const decoded = unescapedLiteral(raw, 0, raw.length);
        if (expected === null) expect(decoded).toBeNull();
        else if (decoded !== null) expect(decoded).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('leaves invalid literals to the parser, which refuses them', () => {
    for (const bad of ['"a\u0001b"', '"tab\there"', '"\\x41"', '"\\é"', '"\\u12G4"', '"\\u12"']) {
      const raw = Buffer.from(bad);
      expect(unescapedLiteral(raw, 0, raw.length), bad).toBeNull();
      expect(() => JSON.parse(bad), bad).toThrow();
    }
    // a range whose last byte is a backslash (its closing quote escaped) is not a literal
    const open = Buffer.from('"ab\\"');
    expect(unescapedLiteral(open, 0, open.length)).toBeNull();
    // a lone surrogate is valid JSON that UTF-8 cannot hold: the parser decodes it
    const lone = Buffer.from('"\\ud800\\u0041"');
    expect(unescapedLiteral(lone, 0, lone.length)).toBeNull();
    expect(JSON.parse(lone.toString())).toBe('\ud800A');
    // bytes that are not UTF-8 are replaced by the parser's decode, as before
    const raw = Buffer.concat([Buffer.from('"ok'), Buffer.from([0xe2, 0x82]), Buffer.from('\\n"')]);
    expect(unescapedLiteral(raw, 0, raw.length)).toBeNull();
  });

  it('decodes a literal longer than the scratch it keeps, then a short one with the kept scratch', () => {
    for (const text of ['line "quoted"\tand tabbed\n'.repeat(100_000), 'short\nlines\n'.repeat(2_000)]) {
      const raw = Buffer.from(JSON.stringify(text));
      expect(unescapedLiteral(raw, 0, raw.length)).toEqual({ text, canonical: true });
    }
  });

  it('finds a control byte at every offset and alignment of a long literal', () => {
    const text = 'x'.repeat(40);
    for (let shift = 0; shift < 4; shift++) {
      for (let at = 0; at < text.length; at++) {
        const raw = Buffer.from(`${' '.repeat(shift)}"${text.slice(0, at)}\u0007${text.slice(at + 1)}"`);
        expect(unescapedLiteral(raw, shift, raw.length)).toBeNull();
      }
      const clean = Buffer.from(`${' '.repeat(shift)}"${text}"`);
      expect(unescapedLiteral(clean, shift, clean.length)?.text).toBe(text);
    }
  });
});
