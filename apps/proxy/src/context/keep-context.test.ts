import { describe, expect, it } from 'vitest';
import { keepContextOf } from './keep-context.js';

describe('keepContextOf', () => {
  it('takes the first trusted text as the task and the later ones as recent, oldest first', () => {
    expect(keepContextOf(['fix the parser', 'I will read it', '{"path":"src/parser.ts"}'])).toEqual({
      task: 'fix the parser',
      recent: ['I will read it', '{"path":"src/parser.ts"}'],
    });
    expect(keepContextOf([])).toEqual({});
  });

  it('bounds recent to the newest texts that fit', () => {
    const texts = ['task', ...Array.from({ length: 100 }, (_, i) => `call ${i}`)];
    const { recent } = keepContextOf(texts);
    expect(recent).toHaveLength(32);
    expect(recent!.at(-1)).toBe('call 99');
    const huge = keepContextOf(['task', 'x'.repeat(70 * 1024), 'newest']);
    expect(huge.recent).toEqual(['newest']);
  });
});
