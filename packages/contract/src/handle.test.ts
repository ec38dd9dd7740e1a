import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressOf, Handle, handleFor, isHandle, UnknownHandleError } from './handle.js';

describe('handles', () => {
  it('derives the same handle from the same bytes, whatever their container', () => {
    const text = 'ERROR: disk at 94% capacity\n';
    expect(handleFor(text)).toBe(handleFor(new TextEncoder().encode(text)));
    expect(handleFor(text)).toMatch(/^dh_[0-9a-f]{12}$/);
    expect(addressOf(text).digest).toHaveLength(64);
    expect(addressOf(text).digest.startsWith(handleFor(text).slice(3))).toBe(true);
  });

  it('gives different handles to different bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        const same = a.length === b.length && a.every((v, i) => v === b[i]);
        expect(handleFor(a) === handleFor(b)).toBe(same);
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes a long text as its UTF-8 bytes, whatever stands where it is read in pieces (property)', () => {
    // pieces of 16 K code units: a surrogate pair, a lone surrogate or a multi-byte character at any edge
    const unit = fc.constantFrom('a', '\n', 'é', '€', '😀', '\ud800', '\udc00');
    fc.assert(
      fc.property(
        fc.integer({ min: 16 * 1024 - 3, max: 16 * 1024 + 1 }),
        fc.array(unit, { maxLength: 8 }),
        (pad, tail) => {
          const text = 'x'.repeat(pad) + tail.join('') + 'y'.repeat(16 * 1024 + 5);
          expect(addressOf(text).digest).toBe(addressOf(Buffer.from(text, 'utf8')).digest);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is a function of the bytes alone (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(handleFor(s)).toBe(handleFor(Buffer.from(s, 'utf8')));
        expect(isHandle(handleFor(s))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects malformed handles in the schema', () => {
    expect(Handle.safeParse('dh_0123456789ab').success).toBe(true);
    for (const bad of ['dh_0123', 'DH_0123456789ab', 'dh_0123456789AB', 'dh_0123456789abc', '']) {
      expect(Handle.safeParse(bad).success).toBe(false);
    }
  });

  it('explains an unknown handle', () => {
    const error = new UnknownHandleError('dh_000000000000');
    expect(error.message).toContain('dh_000000000000');
    expect(error).toBeInstanceOf(Error);
  });
});
