import type { Handle, RestoreStore } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { foldRuns } from './fold.js';

/** A memory store whose puts settle a tick later, counting how many were in flight at once. */
class SlowStore implements RestoreStore {
  readonly inner = new MemoryRestoreStore();
  readonly order: string[] = [];
  inFlight = 0;
  mostInFlight = 0;

  async put(original: Uint8Array): Promise<Handle> {
    this.order.push(new TextDecoder().decode(original).slice(0, 8));
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.inFlight--;
    return this.inner.put(original);
  }

  get(handle: Handle): Promise<Uint8Array> {
    return this.inner.get(handle);
  }

  has(handle: Handle): Promise<boolean> {
    return this.inner.has(handle);
  }
}

describe('foldRuns', () => {
  it('stores every fold of a block at once, in the block order, and each stub names its own original', async () => {
    const segments = Array.from(
      { length: 40 },
      (_, i) => `line ${String(i).padStart(2, '0')} ${'x'.repeat(60)}\n`,
    );
    const keep = new Uint8Array(40).map((_, i) => (i % 10 === 0 ? 1 : 0));
    const store = new SlowStore();
    const folded = await foldRuns(segments, keep, store);
    expect(folded.handles).toHaveLength(4);
    expect(store.mostInFlight).toBe(4);
    expect(store.order).toEqual(['line 01 ', 'line 11 ', 'line 21 ', 'line 31 ']);
    for (const [k, handle] of folded.handles.entries()) {
      const original = new TextDecoder().decode(await store.get(handle));
      expect(original).toBe(segments.slice(k * 10 + 1, k * 10 + 10).join(''));
    }
    expect(folded.text.split('\n').filter((line) => line.startsWith('line'))).toHaveLength(4);
    expect(folded.foldedLines).toBe(36);
  });
});
