import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';

describe('countTokens', () => {
  it('counts a special-token string as the plain text it is', () => {
    const text = 'eos_token = "<|endoftext|>"';
    expect(() => countTokens(text)).not.toThrow();
    // the same characters with the special token's spelling broken count within a token or two of it
    const broken = countTokens('eos_token = "<|endof text|>"');
    expect(Math.abs(countTokens(text) - broken)).toBeLessThanOrEqual(2);
    expect(countTokens(text)).toBeGreaterThan(countTokens('eos_token = ""'));
  });

  it('counts every special token of o200k that way', () => {
    for (const special of ['<|endoftext|>', '<|endofprompt|>', '<|im_start|>', '<|im_end|>'])
      expect(countTokens(`a ${special} b`)).toBeGreaterThan(2);
  });
});
