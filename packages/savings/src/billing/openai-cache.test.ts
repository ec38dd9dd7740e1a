import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CACHE_STEP_TOKENS, cacheableTokens, MIN_CACHED_TOKENS, OpenAIPromptCache } from './openai-cache.js';
import { responsesPrompt } from './openai-prompt.js';

const text = (n: number, seed: number): string =>
  Array.from({ length: n }, (_, i) => `token${(i * 31 + seed) % 501}`).join(' ');

describe('OpenAIPromptCache', () => {
  it('rounds hits down to 1,024 plus a multiple of 128 tokens', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), (tokens) => {
        const hit = cacheableTokens(tokens);
        expect(hit).toBeLessThanOrEqual(tokens);
        if (tokens < MIN_CACHED_TOKENS) expect(hit).toBe(0);
        else {
          expect((hit - MIN_CACHED_TOKENS) % CACHE_STEP_TOKENS).toBe(0);
          expect(tokens - hit).toBeLessThan(CACHE_STEP_TOKENS);
        }
      }),
    );
  });

  it('serves an appended prompt from the cache, never more than it shares', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 3000 }), fc.integer({ min: 1, max: 500 }), (base, extra) => {
        const cache = new OpenAIPromptCache();
        const first = text(base, 1);
        const firstUsage = cache.bill('k', first);
        expect(firstUsage.cached).toBe(0);
        const second = cache.bill('k', `${first} ${text(extra, 2)}`);
        expect(second.cached).toBeLessThanOrEqual(firstUsage.input);
        expect(second.cached).toBe(cacheableTokens(second.cached));
        if (firstUsage.input >= MIN_CACHED_TOKENS + CACHE_STEP_TOKENS)
          expect(second.cached).toBeGreaterThan(0);
      }),
    );
  });

  it('keeps caches apart by routing key', () => {
    const cache = new OpenAIPromptCache();
    const prompt = text(2000, 3);
    cache.bill('a', prompt);
    expect(cache.bill('b', prompt).cached).toBe(0);
    expect(cache.bill('a', prompt).cached).toBe(cacheableTokens(cache.bill('c', prompt).input));
  });

  it('renders tools first and leaves item ids out of the prompt', () => {
    const a = responsesPrompt({
      model: 'gpt-5.5',
      tools: [{ type: 'function', name: 'exec_command' }],
      input: [{ type: 'message', role: 'user', id: 'msg_1', content: 'hi' }],
    });
    const b = responsesPrompt({
      model: 'gpt-5.5',
      tools: [{ name: 'exec_command', type: 'function' }],
      input: [{ type: 'message', role: 'user', id: 'msg_2', content: 'hi' }],
    });
    expect(a.text).toBe(b.text);
    expect(a.sections.map((s) => s.label)).toEqual(['tools', 'instructions', 'input[0](message)']);
  });
});
