import type { ModelPrice } from '@distil/contract';
import { countTokens } from '../tokens.js';

/** One block of a request as it goes out: its bytes. */
export type RequestSegment = string;

/** Cost of one request (one turn) under a strategy; token counts are o200k estimates. */
export interface TurnCost {
  readonly turn: number;
  /** Input tokens of the whole request. */
  readonly requestTokens: number;
  /** Tokens read from the prompt cache (the prefix identical to the previous request's). */
  readonly cacheRead: number;
  /** Tokens written to the prompt cache (the request after the cached prefix). */
  readonly cacheWrite: number;
  /** Tokens billed at the plain input price (no caching, or a prompt below the cacheable minimum). */
  readonly fresh: number;
  readonly output: number;
  readonly usd: number;
}

/** Framing tokens per message (role, separators): the same for every strategy. */
const FRAMING_TOKENS = 4;

/** Counts tokens with a memo: a block's bytes recur in every later request. */
export class TokenMeter {
  private readonly memo = new Map<string, number>();

  /** Tokens of one segment including its framing. */
  segment(text: string): number {
    let n = this.memo.get(text);
    if (n === undefined) {
      n = countTokens(text) + FRAMING_TOKENS;
      this.memo.set(text, n);
    }
    return n;
  }

  /**
   * Tokens of the longest common prefix of two requests (spec: cache-aware compression tracks "the
   * longest contiguous prefix identical between consecutive turns"): whole identical segments, then the
   * identical start of the first segment that differs.
   */
  commonPrefix(previous: readonly RequestSegment[], current: readonly RequestSegment[]): number {
    let tokens = 0;
    const n = Math.min(previous.length, current.length);
    for (let i = 0; i < n; i++) {
      const a = previous[i]!;
      const b = current[i]!;
      if (a === b) {
        tokens += this.segment(b);
        continue;
      }
      let k = 0;
      const max = Math.min(a.length, b.length);
      while (k < max && a.charCodeAt(k) === b.charCodeAt(k)) k++;
      // The framing before the segment matched too; the token that straddles the split does not count.
      if (k > 0) tokens += FRAMING_TOKENS + Math.max(0, countTokens(b.slice(0, k)) - 1);
      break;
    }
    return tokens;
  }
}

/** How a strategy is billed: with the prompt cache (and which write TTL), or without. */
export type Caching = { readonly enabled: false } | { readonly enabled: true; readonly ttl: '5m' | '1h' };

/**
 * Bills one request. With caching, the prefix shared with the previous request is a cache read when it
 * reaches the model's minimum cacheable length, and the rest of a cacheable request is written to the
 * cache (a breakpoint on the last block, as agents set it); a request below the minimum is plain input.
 */
export function billTurn(
  turn: number,
  requestTokens: number,
  sharedPrefix: number,
  outputTokens: number,
  price: ModelPrice,
  caching: Caching,
): TurnCost {
  let cacheRead = 0;
  let cacheWrite = 0;
  let fresh = requestTokens;
  if (caching.enabled && requestTokens >= price.minCacheableTokens) {
    cacheRead = sharedPrefix >= price.minCacheableTokens ? Math.min(sharedPrefix, requestTokens) : 0;
    cacheWrite = requestTokens - cacheRead;
    fresh = 0;
  }
  const writePrice = caching.enabled && caching.ttl === '1h' ? price.cacheWrite1h : price.cacheWrite5m;
  const usd =
    (fresh * price.input +
      cacheRead * price.cacheRead +
      cacheWrite * writePrice +
      outputTokens * price.output) /
    1e6;
  return { turn, requestTokens, cacheRead, cacheWrite, fresh, output: outputTokens, usd };
}
