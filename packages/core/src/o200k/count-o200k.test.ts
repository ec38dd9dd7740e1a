import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../tokens.js';
import { O200K_SPLIT_PATTERN } from './split-pattern.js';

// The counter's contract: gpt-tokenizer's o200k count (encode_ordinary) on any text. gpt-tokenizer is the
// reference here and nowhere else; it loads its ~55 MB of tables in this test process only.
const require = createRequire(import.meta.url);
const reference = require('gpt-tokenizer/encoding/o200k_base') as {
  countTokens: (text: string, options: { disallowedSpecial: ReadonlySet<string> }) => number;
};
const ORDINARY = { disallowedSpecial: new Set<string>() };
const expected = (text: string): number => reference.countTokens(text, ORDINARY);

/**
 * U+FEFF is left out of generated text: gpt-tokenizer looks merged bytes up through a TextDecoder that
 * strips a leading byte-order mark, so it splits tokens o200k has whole (see the fixed case below; the
 * counter here counts them as tiktoken does).
 */
const withoutBom = (text: string): string => text.replaceAll('\uFEFF', '');

const WHITESPACE = [' ', '  ', '    ', '\t', '\t\t', '\n', '\n\n', '\r\n', ' \n', '\n ', '\u00a0', '\u3000'];
const SCRIPTS = [
  '日本語の文章',
  '中文字符',
  '한국어',
  'Ελληνικά',
  'русский',
  'العربية',
  'हिन्दी',
  'e\u0301',
  'ß',
];
const EMOJI = ['😀', '👍🏽', '👨‍👩‍👧', '🇯🇵', '✅', '❌', '🚀'];
const WORDS = [
  "don't",
  "I'LL",
  "we've",
  "it's",
  "'s",
  "O'Neil",
  'CamelCase',
  'HTTPServer',
  'snake_case',
  'ünïcödé',
];
const CODE = [
  'function f(a, b) {',
  '  return a + b;',
  '}',
  'const xs = [1, 2, 3].map((x) => x * 2);',
  'if (err !== null) throw new Error("no " + id);',
  'def main():',
  '    print(f"{x!r}")',
  '#include <stdio.h>',
  '// TODO: fix',
  '/* */',
  '=> :: -> !== ||= ??',
  '{"key": [null, true, 1.5e-3]}',
  '<div class="a">&amp;</div>',
];
const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|endofprompt|>'];

const logLine = fc
  .tuple(
    fc.constantFrom('INFO', 'WARN', 'ERROR', 'DEBUG', 'error:', '[ok]'),
    fc.nat(99_999),
    fc.stringMatching(/^[a-z_]{1,10}$/),
    fc.integer({ min: 0, max: 0xffffffff }),
  )
  .map(
    ([level, n, name, hash]) =>
      `2026-11-30T10:${String(n % 60).padStart(2, '0')}:00Z ${level} ${name}#${n} ${hash.toString(16)} in ${n / 7} ms`,
  );

/** A run of one short string, long enough to make pieces of hundreds of bytes. */
const run = fc
  .tuple(
    fc.constantFrom('a', 'ab', '=', '-', ' ', '\n', '0', 'xyz', '日', '😀', '\t '),
    fc.integer({ min: 1, max: 300 }),
  )
  .map(([unit, times]) => unit.repeat(times));

const fragment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.constantFrom(...WHITESPACE, ...SCRIPTS, ...EMOJI, ...WORDS, ...CODE, ...SPECIAL),
  logLine,
  fc.nat().map(String),
  fc.double({ noNaN: true }).map(String),
  // a lone surrogate: a JavaScript string can hold one, UTF-8 cannot
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  run,
);

const mixedText = fc.array(fragment, { maxLength: 30 }).map((parts) => withoutBom(parts.join('')));

describe('the o200k counter', () => {
  it('uses the pre-tokenizer pattern gpt-tokenizer uses', () => {
    const constants = require('gpt-tokenizer/encodingParams/constants') as {
      O200K_TOKEN_SPLIT_REGEX: RegExp;
    };
    expect(O200K_SPLIT_PATTERN).toBe(constants.O200K_TOKEN_SPLIT_REGEX.source);
  });

  it('counts as gpt-tokenizer on arbitrary graphemes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const input = withoutBom(text);
        expect(countTokens(input)).toBe(expected(input));
      }),
      { numRuns: 400 },
    );
  });

  it('counts as gpt-tokenizer on arbitrary code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const input = withoutBom(text);
        expect(countTokens(input)).toBe(expected(input));
      }),
      { numRuns: 400 },
    );
  });

  it('counts as gpt-tokenizer on log, code, whitespace, digits, emoji, CJK and special-token text', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(countTokens(text)).toBe(expected(text));
      }),
      { numRuns: 300 },
    );
  });

  it('counts as gpt-tokenizer on pieces too long for the quadratic merge', () => {
    const piece = (letters: string) =>
      fc.string({ unit: fc.constantFrom(...letters), minLength: 60, maxLength: 1200 });
    fc.assert(
      fc.property(
        fc.oneof(
          piece('abcdefghijklmnopqrstuvwxyz'),
          piece('etaoinshr'),
          piece('=-*#/.:_'),
          piece('日本語のテキスト'),
        ),
        (text) => {
          expect(countTokens(text)).toBe(expected(text));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('counts fixed texts as gpt-tokenizer does', () => {
    const texts = [
      '',
      'hello world',
      'eos_token = "<|endoftext|>"',
      'a\uD800b',
      '\uDC00\uDC00',
      '\uD83D',
      ' '.repeat(5000) + 'x',
      'a'.repeat(20_000),
      '-'.repeat(300),
      '日本語のテキストです。😀👍🏽',
      'function foo(bar) {\n  return bar * 2;\n}\n',
      'ERROR [main] 2026-11-30 Connection refused: 127.0.0.1:5432\n\tat Foo.bar(Foo.java:42)\r\n',
    ];
    for (const text of texts)
      expect(countTokens(text), JSON.stringify(text.slice(0, 40))).toBe(expected(text));
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('eos_token = "<|endoftext|>"')).toBe(11);
  });

  it('counts a byte-order mark as tiktoken does, where gpt-tokenizer splits it', () => {
    // EF BB BF is o200k token 5574 and EF BB BF EF BB BF token 135153: one token each, as tiktoken's
    // encode_ordinary gives; gpt-tokenizer counts 2 and 4 (its string lookup drops the mark).
    expect(countTokens('\uFEFF')).toBe(1);
    expect(countTokens('\uFEFF\uFEFF')).toBe(1);
    expect(countTokens('\uFEFFhello')).toBe(2);
    expect(expected('\uFEFF')).toBe(2);
  });

  it('counts a merged piece the same the second time, a byte-order mark before it or not', () => {
    const word = 'qwzxvbnmkj';
    const alone = countTokens(word);
    expect(countTokens(`\uFEFF${word}`)).toBe(countTokens(`\uFEFF${word}`));
    expect(countTokens(word)).toBe(alone);
    expect(alone).toBe(expected(word));
  });
});
