import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLiteral } from './json-literal.js';
import { LiteralCache } from './literal-cache.js';

/** A body holding `texts` as JSON string literals, with each literal's byte range. */
function literals(texts: readonly string[]): { raw: Buffer; ranges: [number, number][] } {
  const parts: Buffer[] = [];
  const ranges: [number, number][] = [];
  let at = 0;
  for (const text of texts) {
    const bytes = Buffer.from(`${JSON.stringify(text)},`);
    ranges.push([at, at + bytes.length - 1]);
    parts.push(bytes);
    at += bytes.length;
  }
  return { raw: Buffer.concat(parts), ranges };
}

describe('LiteralCache', () => {
  it('decodes exactly as a fresh decode does, however literals collide, repeat or get evicted', () => {
    // Long texts that differ in one character: same length, mostly the same sampled bytes.
    const long = fc
      .tuple(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 299 }),
        fc.constantFrom('a', 'é', '\n'),
      )
      .map(([base, at, c]) => {
        const chars = `${'line of output\n'.repeat(20)}${base}`.split('');
        chars[at] = c;
        return chars.join('');
      });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(long, fc.string({ maxLength: 40 })), { minLength: 1, maxLength: 30 }),
        (texts) => {
          const cache = new LiteralCache(2000);
          for (let round = 0; round < 2; round++) {
            const { raw, ranges } = literals(texts);
            for (const [start, end] of ranges) {
              const { text, canonical } = cache.decode(raw, start, end);
              expect({ text, canonical }).toEqual(decodeLiteral(raw, start, end));
              expect(cache.size).toBeLessThanOrEqual(2000);
            }
            for (const text of texts) expect(cache.encode(text).toString()).toBe(JSON.stringify(text));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hands back the same string for the same bytes in a later body', () => {
    const cache = new LiteralCache();
    const text = 'INFO step\n'.repeat(100);
    const first = literals(['a', text]);
    const second = literals(['bb', text]);
    const a = cache.decode(first.raw, ...first.ranges[1]!).text;
    const b = cache.decode(second.raw, ...second.ranges[1]!).text;
    expect(b).toBe(text);
    expect(Object.is(a, b)).toBe(true);
    expect(cache.encode(text)).toBe(cache.encode(text));
  });
});
