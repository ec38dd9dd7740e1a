import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, FEATURE_NAMES, lineFeatures, writeFeatures } from './line-features.js';

const index = (name: (typeof FEATURE_NAMES)[number]): number => FEATURE_NAMES.indexOf(name);

/** Log-like lines built from pieces the patterns react to, so the property also exercises every branch. */
const logLine = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'ERROR',
        'DEBUG',
        'DECISION:',
        '|',
        ': ',
        '=',
        ' ',
        '\t',
        '2024-05-01T12:00:00Z ',
        '3 passed',
      ),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('line features', () => {
  it('are nine, in the order the weights use', () => {
    expect(FEATURE_COUNT).toBe(9);
    expect(FEATURE_NAMES).toEqual([
      'bias',
      'decision_marker',
      'error_keywords',
      'structured_data',
      'digit_density',
      'length',
      'debug_keywords',
      'uppercase_ratio',
      'blank_line',
    ]);
  });

  it('stay within [0, 1] on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), logLine), (line) => {
        const x = lineFeatures(line);
        expect(x).toHaveLength(FEATURE_COUNT);
        for (const v of x) {
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
        expect(x[0]).toBe(1);
      }),
      { numRuns: 3000 },
    );
  });

  it('write into a shared buffer at an offset without touching its neighbours', () => {
    const buffer = new Float64Array(FEATURE_COUNT * 3).fill(7);
    writeFeatures('ERROR: 42', buffer, FEATURE_COUNT);
    expect(Array.from(buffer.subarray(0, FEATURE_COUNT))).toEqual(new Array(FEATURE_COUNT).fill(7));
    expect(Array.from(buffer.subarray(FEATURE_COUNT * 2))).toEqual(new Array(FEATURE_COUNT).fill(7));
    expect(Array.from(buffer.subarray(FEATURE_COUNT, FEATURE_COUNT * 2))).toEqual(
      Array.from(lineFeatures('ERROR: 42')),
    );
  });

  it('fire on what they name', () => {
    expect(lineFeatures('DECISION: go')[index('decision_marker')]).toBe(1);
    expect(lineFeatures('connection refused')[index('error_keywords')]).toBe(1);
    expect(lineFeatures('| a | b |')[index('structured_data')]).toBe(1);
    expect(lineFeatures('Status: Running')[index('structured_data')]).toBe(1);
    expect(lineFeatures('12 passed')[index('structured_data')]).toBe(1);
    expect(lineFeatures('1234')[index('digit_density')]).toBe(1);
    expect(lineFeatures('ab12')[index('digit_density')]).toBe(0.5);
    expect(lineFeatures('x'.repeat(100))[index('length')]).toBe(0.5);
    expect(lineFeatures('x'.repeat(1000))[index('length')]).toBe(1);
    expect(lineFeatures('DEBUG cache hit')[index('debug_keywords')]).toBe(1);
    expect(lineFeatures('2024-05-01 12:00:00')[index('debug_keywords')]).toBe(1);
    expect(lineFeatures('ABcd')[index('uppercase_ratio')]).toBe(0.5);
    expect(lineFeatures('  ')[index('blank_line')]).toBe(1);
    expect(lineFeatures('x')[index('blank_line')]).toBe(0);
  });
});
