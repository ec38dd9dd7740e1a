import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BRACKETED,
  CODE,
  compatible,
  HAS_LETTER,
  LEVEL,
  MASKED,
  PURE,
  traitsOf,
  traitsOfUnits,
  UPPER,
} from './template-merge-rules.js';

/** The traits as first written, with regular expressions over the token's text: the oracle. */
function oracle(text: string): number {
  let letters = 0;
  let uppers = 0;
  let lowerThenUpper = false;
  let firstUpper = -1;
  let secondLower = false;
  let prevLower = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (upper || lower) {
      letters++;
      if (upper) uppers++;
      if (firstUpper < 0) firstUpper = upper ? 1 : 0;
      else if (letters === 2 && lower) secondLower = true;
      if (upper && prevLower) lowerThenUpper = true;
      prevLower = lower;
    } else prevLower = false;
  }
  const level =
    /^[[(<]?(?:TRACE|DEBUG|FINE|FINER|FINEST|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|ALERT|EMERG|[VDIWEF])[\])>:]?$/i;
  let t = 0;
  if (text.includes('\u0000')) t |= MASKED;
  if (!/[A-Za-z0-9\u0080-\uffff]/.test(text)) t |= PURE;
  if (text.charCodeAt(0) === 91 && text.includes(']')) t |= BRACKETED;
  if (letters >= 2 && uppers === letters && /^[^A-Za-z]*[A-Z][A-Z_]+[^A-Za-z]*$/.test(text)) t |= UPPER;
  if (lowerThenUpper || (firstUpper === 1 && secondLower)) t |= CODE;
  if (letters > 0) t |= HAS_LETTER;
  if (level.test(text)) t |= LEVEL;
  return t;
}

describe('traitsOfUnits', () => {
  it('reads a token as the regular expressions do, anywhere in a buffer (property)', () => {
    const token = fc.oneof(
      fc.string({
        unit: fc.constantFrom(
          'a',
          'e',
          'B',
          'I',
          'N',
          'F',
          'O',
          '_',
          '1',
          '[',
          ']',
          '(',
          ':',
          '<',
          '\u0000',
          'é',
          'K',
        ),
        maxLength: 10,
      }),
      fc.constantFrom(
        'INFO',
        '[warn]',
        'Error:',
        '(DEBUG)',
        '<e>',
        'CRITICAL]',
        '[INFO]:',
        'GET_ALL',
        'A1B',
        'xY',
      ),
    );
    fc.assert(
      fc.property(token, fc.nat(5), (text, pad) => {
        const buffer = Uint16Array.from(`${'x'.repeat(pad)}${text}yz`, (c) => c.charCodeAt(0));
        expect(traitsOfUnits(buffer, pad, text.length)).toBe(oracle(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('names levels, event names, identifiers and bracketed fields', () => {
    expect(traitsOf('[warn]') & LEVEL).toBe(LEVEL);
    expect(traitsOf('Error:') & LEVEL).toBe(LEVEL);
    expect(traitsOf('errors') & LEVEL).toBe(0);
    expect(traitsOf('CONTAINER_REMOTE_LAUNCH') & UPPER).toBe(UPPER);
    expect(traitsOf('A-B') & UPPER).toBe(0);
    expect(traitsOf('nodeManager') & CODE).toBe(CODE);
    expect(traitsOf('[main]') & BRACKETED).toBe(BRACKETED);
    expect(traitsOf('(\u0000)')).toBe(MASKED | PURE);
  });

  it('lets two tokens be one variable only beside a pure variable or as two bracketed fields', () => {
    expect(compatible(traitsOf('\u0000'), traitsOf('opened'))).toBe(true);
    expect(compatible(traitsOf('[main]'), traitsOf('[worker-3]'))).toBe(true);
    expect(compatible(traitsOf('opened'), traitsOf('closed'))).toBe(false);
  });
});
