import { describe, expect, it } from 'vitest';
import { SpareSlots } from './hash-slots.js';

describe('SpareSlots', () => {
  it('hands back the slots it was given, with every id cleared, and only once', () => {
    const spare = new SpareSlots();
    const first = spare.take();
    first.ids.fill(7);
    spare.give(first.ids, first.hashes);
    const again = spare.take();
    expect(again.ids).toBe(first.ids);
    expect(again.ids.every((id) => id === 0)).toBe(true);
    expect(spare.take().ids).not.toBe(first.ids);
  });

  it('lets go of slots grown past what it keeps', () => {
    const spare = new SpareSlots();
    const huge = new Int32Array(1 << 17);
    spare.give(huge, new Int32Array(1 << 17));
    expect(spare.take().ids).not.toBe(huge);
  });
});
