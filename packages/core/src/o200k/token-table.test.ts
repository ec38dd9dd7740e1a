import { describe, expect, it } from 'vitest';
import { bytePairCount } from './byte-pair-count.js';
import { tableFromTiktoken } from './tiktoken-file.js';
import { rankOf, viewTable } from './token-table.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const ranksFile = (...tokens: string[]): Uint8Array =>
  bytes(tokens.map((token, rank) => `${Buffer.from(token).toString('base64')} ${rank}\n`).join(''));

describe('a token table from a ranks file', () => {
  const table = tableFromTiktoken(ranksFile('a', 'b', 'c', 'ab', 'bc', 'abc', 'é'));

  it('finds each token by its bytes, and nothing else', () => {
    for (const [token, rank] of [
      ['a', 0],
      ['ab', 3],
      ['abc', 5],
      ['é', 6],
    ] as const) {
      const key = bytes(`x${token}y`);
      expect(rankOf(table, key, 1, key.length - 1)).toBe(rank);
    }
    expect(rankOf(table, bytes('ba'), 0, 2)).toBe(-1);
    expect(rankOf(table, bytes('abcd'), 0, 4)).toBe(-1);
    expect(table.tokenCount).toBe(7);
    expect(table.longest).toBe(3);
  });

  it('merges the lowest-ranked pair first, the leftmost on a tie', () => {
    // "abc": ab (3) merges before bc (4), then ab+c is abc (5): one token
    expect(bytePairCount(table, bytes('abc'), 3)).toBe(1);
    // "bcab": ab (3) merges, then bc (4); "bcab" is no token: two
    expect(bytePairCount(table, bytes('bcab'), 4)).toBe(2);
    expect(bytePairCount(table, bytes('cb'), 2)).toBe(2);
  });

  it('counts a long piece with the heap as the scan would', () => {
    const long = bytes('abc'.repeat(100) + 'ab'.repeat(100));
    expect(bytePairCount(table, long, long.length)).toBe(200);
  });

  it('is read again from its buffer, and a buffer that is not a table is refused', () => {
    const again = viewTable(table.buffer);
    expect(again && rankOf(again, bytes('bc'), 0, 2)).toBe(4);
    expect(viewTable(new SharedArrayBuffer(table.buffer.byteLength))).toBeNull();
    expect(viewTable(new Uint8Array(8).buffer)).toBeNull();
    expect(viewTable('table')).toBeNull();
  });

  it('refuses a ranks file with a token twice or ranks out of order', () => {
    expect(() => tableFromTiktoken(ranksFile('a', 'b', 'a'))).toThrow(/listed twice/);
    expect(() => tableFromTiktoken(bytes('YQ== 1\n'))).toThrow(/not rank 0/);
    expect(() => tableFromTiktoken(bytes('YQ==\n'))).toThrow(/no rank/);
  });
});
