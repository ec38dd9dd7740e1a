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

  it('keeps a large range that is most of its body as a view, and copies one that is not', () => {
    const body = Buffer.alloc(100 * 1024, 0x61);
    const most = ownBytes(body, 10, body.length - 10);
    expect(most.buffer).toBe(body.buffer);
    expect(most.length).toBe(body.length - 20);
    const part = ownBytes(body, 0, 40 * 1024);
    expect(part.buffer).not.toBe(body.buffer);
    expect(part.equals(body.subarray(0, 40 * 1024))).toBe(true);
    const small = ownBytes(Buffer.alloc(70 * 1024), 0, 60 * 1024);
    expect(small.buffer.byteLength).toBe(60 * 1024);
  });
});
