import { countTokens } from '@distil/core';
import { commonPrefixLength } from './canonical-json.js';

/** Input tokens of one Responses request as OpenAI bills them. */
export interface OpenAIInputUsage {
  /** All input tokens (OpenAI's `input_tokens` includes the cached ones). */
  readonly input: number;
  /** Tokens served from the cache (`input_tokens_details.cached_tokens`). */
  readonly cached: number;
  /** Tokens of this prompt the cache now holds for later requests. */
  readonly cachedTokens: number;
}

/** OpenAI's prompt caching applies from this many prompt tokens on. */
export const MIN_CACHED_TOKENS = 1024;
/** Beyond the minimum, cache hits grow in steps of this many tokens. */
export const CACHE_STEP_TOKENS = 128;

/** The part of a `tokens`-long shared prefix a cache hit covers: 0, 1024, 1152, 1280, … */
export function cacheableTokens(tokens: number): number {
  if (tokens < MIN_CACHED_TOKENS) return 0;
  return MIN_CACHED_TOKENS + Math.floor((tokens - MIN_CACHED_TOKENS) / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
}

/**
 * OpenAI's automatic prompt caching, simulated (OpenAI's prompt-caching guide): no markers and no write
 * premium; a request whose prompt is at least 1,024 tokens is cached, and a later request routed to the
 * same cache (same `prompt_cache_key`) reads the longest prefix it shares with an earlier one, rounded
 * down to 1,024 + a multiple of 128 tokens.
 */
export class OpenAIPromptCache {
  readonly #prompts = new Map<string, string[]>();

  /** Bills one request's input and remembers its prompt. */
  bill(routingKey: string, prompt: string): OpenAIInputUsage {
    const earlier = this.#prompts.get(routingKey) ?? [];
    let shared = 0;
    for (const previous of earlier) shared = Math.max(shared, commonPrefixLength(previous, prompt));
    const input = countTokens(prompt);
    const cached = Math.min(cacheableTokens(shared === 0 ? 0 : countTokens(prompt.slice(0, shared))), input);
    earlier.push(prompt);
    this.#prompts.set(routingKey, earlier);
    return { input, cached, cachedTokens: cacheableTokens(input) };
  }
}
