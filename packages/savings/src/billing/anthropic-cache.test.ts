import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessagesRequest } from '../wire/messages-request.js';
import { AnthropicPromptCache, LOOKBACK_BLOCKS } from './anthropic-cache.js';
import { anthropicPrompt } from './anthropic-prompt.js';

const MODEL = 'claude-opus-5-5';
const words = (n: number, seed: number): string =>
  Array.from({ length: n }, (_, i) => `word${(i * 7919 + seed) % 997}`).join(' ');

/** A request shaped like Claude Code's: breakpoints on the system prompt and on the last message block. */
function request(turns: readonly string[], options: { system?: string } = {}): MessagesRequest {
  return {
    model: MODEL,
    system: [{ type: 'text', text: options.system ?? words(3000, 1), cache_control: { type: 'ephemeral' } }],
    messages: turns.map((text, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [
        i === turns.length - 1
          ? { type: 'text', text, cache_control: { type: 'ephemeral' } }
          : { type: 'text', text },
      ],
    })),
  };
}

describe('AnthropicPromptCache', () => {
  it('reads what the previous turn wrote when a conversation only appends', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 2, maxLength: 8 }), (sizes) => {
        const cache = new AnthropicPromptCache();
        const turns: string[] = [];
        let previousCached = 0;
        for (const [i, size] of sizes.entries()) {
          turns.push(words(size, i));
          const usage = cache.bill(MODEL, anthropicPrompt(request(turns)), 1024);
          if (i > 0) expect(usage.cacheRead).toBe(previousCached);
          // everything up to the last breakpoint (the whole prompt here) is cached afterwards
          expect(usage.input).toBe(0);
          previousCached = usage.cachedTokens;
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reads only up to the first changed block', () => {
    const cache = new AnthropicPromptCache();
    cache.bill(MODEL, anthropicPrompt(request(['first question'])), 1024);
    const changed = cache.bill(
      MODEL,
      anthropicPrompt(request(['first question', 'answer', 'more'], { system: words(3000, 2) })),
      1024,
    );
    expect(changed.cacheRead).toBe(0);
    expect(changed.cacheWrite5m).toBeGreaterThan(0);
  });

  it('ignores key order, cache_control markers and string-versus-block content', () => {
    const cache = new AnthropicPromptCache();
    const first = request(['hello there']);
    cache.bill(MODEL, anthropicPrompt(first), 1024);
    const second: MessagesRequest = {
      messages: [
        { content: 'hello there', role: 'user' },
        { role: 'assistant', content: [{ text: 'hi', type: 'text', cache_control: { type: 'ephemeral' } }] },
      ],
      system: first.system,
      model: MODEL,
    };
    const usage = cache.bill(MODEL, anthropicPrompt(second), 1024);
    expect(usage.cacheRead).toBe(anthropicPrompt(first).prefixTokens.at(-1));
  });

  it('never caches a prefix shorter than the minimum cacheable length', () => {
    const cache = new AnthropicPromptCache();
    const small = request(['short'], { system: 'tiny system prompt' });
    const once = cache.bill(MODEL, anthropicPrompt(small), 4096);
    const twice = cache.bill(MODEL, anthropicPrompt(small), 4096);
    expect(once.cacheWrite5m + twice.cacheWrite5m + twice.cacheRead).toBe(0);
    expect(twice.input).toBe(anthropicPrompt(small).prefixTokens.at(-1));
  });

  it('finds an earlier entry only within the lookback window of a breakpoint', () => {
    const cache = new AnthropicPromptCache();
    const turns = ['start'];
    const first = cache.bill(MODEL, anthropicPrompt(request(turns)), 1024);
    const far = [...turns, ...Array.from({ length: LOOKBACK_BLOCKS + 2 }, (_, i) => `step ${i}`)];
    const usage = cache.bill(MODEL, anthropicPrompt(request(far)), 1024);
    // the last turn's entry is out of reach; only the system prompt's own breakpoint still hits
    expect(usage.cacheRead).toBeLessThan(first.cachedTokens);
    expect(usage.cacheRead).toBe(anthropicPrompt(request(far)).prefixTokens[1]);
  });

  it('bills a 1-hour breakpoint in its own bucket', () => {
    const cache = new AnthropicPromptCache();
    const body = request(['q']);
    const system = body.system as { type: string; text: string; cache_control: object }[];
    system[0]!.cache_control = { type: 'ephemeral', ttl: '1h' };
    const usage = cache.bill(MODEL, anthropicPrompt(body), 1024);
    expect(usage.cacheWrite1h).toBe(anthropicPrompt(body).prefixTokens[1]);
  });
});
