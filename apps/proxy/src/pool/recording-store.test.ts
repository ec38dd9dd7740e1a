import { SalienceKeepModel } from '@distil/codec';
import { type Block, TierConfig, UnknownHandleError } from '@distil/contract';
import { compressBlock, MemoryRestoreStore } from '@distil/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordingStore } from './recording-store.js';

const tiers = TierConfig.parse({});
const keepModel = new SalienceKeepModel();

/**
 * A build log: routine progress lines (which fold), a few failures and odd lines at random places (which
 * are kept), and a repeated block now and then (two runs of it fold behind one handle).
 */
const block = fc
  .record({
    count: fc.integer({ min: 1, max: 300 }),
    odd: fc.array(
      fc.tuple(fc.nat(299), fc.constantFrom('ERROR test_x failed: expected 3', '', '{"ok":true}')),
    ),
    step: fc.integer({ min: 1, max: 97 }),
    repeat: fc.boolean(),
  })
  .map(({ count, odd, step, repeat }): Block => {
    const lines = Array.from(
      { length: count },
      (_, i) => `INFO step ${i}: compiled module_${i}.ts in ${(i * step) % 90} ms`,
    );
    for (const [at, text] of odd) if (at < count) lines[at] = text;
    const text = repeat ? [...lines, ...lines].join('\n') : lines.join('\n');
    return { id: 'b', role: 'tool', kind: 'log', text, trusted: false };
  });

describe('RecordingStore', () => {
  it('compressing against it, then putting what it recorded, equals compressing against the store', async () => {
    let folded = 0;
    await fc.assert(
      fc.asyncProperty(block, async (b) => {
        const direct = new MemoryRestoreStore();
        const expected = await compressBlock(b, { keepModel, store: direct, tiers });
        const recording = new RecordingStore();
        const compressed = await compressBlock(b, { keepModel, store: recording, tiers });
        const replayed = new MemoryRestoreStore();
        for (const put of recording.puts) expect(await replayed.put(put.original)).toBe(put.handle);
        expect(compressed).toEqual(expected);
        for (const handle of expected.handles)
          expect(await replayed.get(handle)).toEqual(await direct.get(handle));
        expect(replayed.size).toBe(direct.size);
        if (expected.tier === 'digest') folded++;
      }),
      { numRuns: 40 },
    );
    // the property held over folded blocks, not only over blocks left whole
    expect(folded).toBeGreaterThan(5);
  });

  it('records every put in order, repeats included, and answers only what it recorded', async () => {
    const store = new RecordingStore();
    const one = new TextEncoder().encode('one');
    const two = new TextEncoder().encode('two');
    const first = await store.put(one);
    const second = await store.put(two);
    expect(await store.put(one)).toBe(first);
    expect(store.puts.map((p) => p.handle)).toEqual([first, second, first]);
    expect(await store.get(second)).toEqual(two);
    expect(await store.has(first)).toBe(true);
    await expect(store.get('dh_000000000000')).rejects.toBeInstanceOf(UnknownHandleError);
  });
});
