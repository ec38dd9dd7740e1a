import type { AnthropicPrompt, CacheTtl } from './anthropic-prompt.js';

/** Input tokens of one request in the buckets Anthropic bills separately. */
export interface AnthropicInputUsage {
  /** Tokens after the last cache entry used or written: billed at the input price. */
  readonly input: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
  /** Blocks of the prompt covered by the cache once this request is done (read or written). */
  readonly cachedBlocks: number;
  /** Tokens of those blocks. */
  readonly cachedTokens: number;
}

/**
 * How far back from a breakpoint the provider looks for an earlier cache entry. Anthropic's prompt-caching
 * guide: the system checks for hits at block boundaries up to about 20 blocks before each explicit
 * breakpoint, and uses the longest prefix that hits.
 */
export const LOOKBACK_BLOCKS = 20;

/**
 * Anthropic's prompt cache, simulated: entries are written at `cache_control` breakpoints whose prefix is
 * at least the model's minimum cacheable length, and a later request reads the longest written prefix it
 * repeats exactly, found within the lookback window of one of its breakpoints. Entries never expire here
 * (a scripted session lasts well under the 5-minute TTL, and every hit refreshes it anyway).
 */
export class AnthropicPromptCache {
  readonly #entries = new Set<string>();

  /** Bills one request's input and records the entries it writes. */
  bill(model: string, prompt: AnthropicPrompt, minCacheableTokens: number): AnthropicInputUsage {
    const { blocks, prefixHash, prefixTokens } = prompt;
    const breakpoints: { end: number; ttl: CacheTtl }[] = [];
    blocks.forEach((b, i) => {
      if (b.breakpoint) breakpoints.push({ end: i + 1, ttl: b.breakpoint });
    });
    let readEnd = 0;
    for (const { end } of breakpoints) {
      for (let p = end; p >= Math.max(1, end - LOOKBACK_BLOCKS); p--) {
        if (p > readEnd && this.#entries.has(`${model}:${prefixHash[p]}`)) readEnd = p;
      }
    }
    let written = readEnd;
    let cacheWrite5m = 0;
    let cacheWrite1h = 0;
    for (const { end, ttl } of breakpoints) {
      if (end <= written || prefixTokens[end]! < minCacheableTokens) continue;
      const tokens = prefixTokens[end]! - prefixTokens[written]!;
      if (ttl === '1h') cacheWrite1h += tokens;
      else cacheWrite5m += tokens;
      written = end;
    }
    for (const { end } of breakpoints) {
      if (end <= written && prefixTokens[end]! >= minCacheableTokens) {
        this.#entries.add(`${model}:${prefixHash[end]}`);
      }
    }
    const total = prefixTokens[blocks.length]!;
    return {
      input: total - prefixTokens[written]!,
      cacheWrite5m,
      cacheWrite1h,
      cacheRead: prefixTokens[readEnd]!,
      cachedBlocks: written,
      cachedTokens: prefixTokens[written]!,
    };
  }
}
