import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiPieceEnd, FALLBACK } from './ascii-pieces.js';
import { O200K_SPLIT_PATTERN } from './split-pattern.js';

const SPLIT = new RegExp(O200K_SPLIT_PATTERN, 'gu');

/** The regex's pieces. */
function regexPieces(text: string): string[] {
  return [...text.matchAll(SPLIT)].map((match) => match[0]);
}

/** The pieces as the counter cuts them: the ASCII splitter, the regex where it falls back. */
function counterPieces(text: string): string[] {
  const pieces: string[] = [];
  const regex = new RegExp(O200K_SPLIT_PATTERN, 'gu');
  let at = 0;
  while (at < text.length) {
    const end = asciiPieceEnd(text, at);
    if (end !== FALLBACK) {
      pieces.push(text.slice(at, end));
      at = end;
      continue;
    }
    regex.lastIndex = at;
    const match = regex.exec(text);
    if (match === null) break;
    pieces.push(match[0]);
    at = regex.lastIndex;
  }
  return pieces;
}

// Every ASCII class the pattern tells apart, the contractions, and characters beyond ASCII of each kind
// the pattern cares about (letters, a mark, digits, spaces, punctuation, an emoji, a lone surrogate).
const ATOMS = [
  ...'aZmQ09 \t\n\r\v\f\'"/\\.,;:-_()[]{}<>=+*&^%$#@!?`~|\x00\x1b\x1f\x7f',
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'ve",
  "'re",
  "'d",
  "'m",
  "'t",
  "'x",
  "'l",
  'é',
  'ß',
  'Ω',
  '日',
  '\u0301',
  '²',
  '٣',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\u0085',
  '→',
  '—',
  '😀',
  '\ud800',
];

describe('asciiPieceEnd', () => {
  it('cuts every text into the pieces the o200k regex cuts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ATOMS), { maxLength: 40 }), (atoms) => {
        const text = atoms.join('');
        expect(counterPieces(text)).toEqual(regexPieces(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('cuts log lines without falling back to the regex', () => {
    const log =
      "2024-05-01T10:00:00Z ERROR [worker-3] Can't open /var/lib/app.db: I/O error (errno=5)\r\n  at Foo.bar (src/x.ts:12:4)\n\n";
    expect(counterPieces(log)).toEqual(regexPieces(log));
    let at = 0;
    while (at < log.length) {
      const end = asciiPieceEnd(log, at);
      expect(end).toBeGreaterThan(at);
      at = end;
    }
  });
});
