import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicUsage, NO_USAGE } from './billed-usage.js';

const FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];

/** What the usage schema says a field holds: a non-negative safe integer, 0 when absent or null, else invalid. */
function expected(value: unknown): number | null {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

describe('anthropicUsage', () => {
  it('reads every field as the schema does, extra fields ignored (property, 2,000 cases)', () => {
    const field = fc.oneof(
      fc.nat(),
      fc.constant(null),
      fc.constant(undefined),
      fc.integer({ min: -5, max: -1 }),
      fc.double({ noNaN: false }),
      fc.string({ maxLength: 3 }),
    );
    const usage = fc.record(
      { ...Object.fromEntries(FIELDS.map((name) => [name, field])), service_tier: fc.string() },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(usage, (u) => {
        const values = FIELDS.map((name) => expected((u as Record<string, unknown>)[name]));
        const [input, output, cacheWrite, cacheRead] = values;
        const want = values.some((v) => v === null) ? NO_USAGE : { input, cacheWrite, cacheRead, output };
        expect(anthropicUsage(u)).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads no usage from a missing, null or non-object usage', () => {
    expect(anthropicUsage(undefined)).toEqual(NO_USAGE);
    expect(anthropicUsage(null)).toEqual(NO_USAGE);
    expect(anthropicUsage([1, 2])).toEqual(NO_USAGE);
    expect(anthropicUsage('12')).toEqual(NO_USAGE);
  });
});
