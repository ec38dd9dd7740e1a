import { describe, expect, it } from 'vitest';
import { evictOldest, ownBytes } from './cache-entries.js';

describe('evictOldest', () => {
  it('takes the oldest entry not hit since it was last passed, giving hit ones a second chance', () => {
    const order = new Map(['a', 'b', 'c'].map((key) => [key, { used: key !== 'c' }]));
    // a and b were hit: each goes to the back, cleared; c is taken
    expect(evictOldest(order)?.[0]).toBe('c');
    expect([...order.keys()]).toEqual(['a', 'b']);
    order.get('b')!.used = true;
    expect(evictOldest(order)?.[0]).toBe('a');
    expect(evictOldest(order)?.[0]).toBe('b');
    expect(evictOldest(order)).toBeUndefined();
  });
});

describe('ownBytes', () => {
  it('copies the range into memory no other buffer shares', () => {
    const raw = Buffer.from('0123456789');
    const copy = ownBytes(raw, 2, 6);
    expect(copy.toString()).toBe('2345');
    expect(copy.byteOffset).toBe(0);
    expect(copy.buffer.byteLength).toBe(4);
    raw[2] = 0x78;
    expect(copy.toString()).toBe('2345');
  });
});
