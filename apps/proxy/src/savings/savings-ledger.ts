import type { ModelPrice, PricingConfig } from '@distil/contract';
import { resolvePrice } from '@distil/core';
import { addUsage, type BilledUsage, NO_USAGE } from './billed-usage.js';

/** What one proxied request cost and what it would have cost uncompressed. */
export interface RequestSavings {
  readonly provider: 'anthropic' | 'openai';
  readonly model: string;
  /** Billed usage summed over every upstream call the request made (expand round trips included). */
  readonly billed: BilledUsage;
  /** The estimate of what the request would have been billed without Distil (see uncompressedUsage). */
  readonly uncompressed: BilledUsage;
  readonly upstreamCalls: number;
  /** Estimated tokens (o200k) compression removed: from new blocks, and from blocks sent before. */
  readonly savedTokens: { readonly fresh: number; readonly repeat: number };
  readonly expands: number;
  /** Null when the model is not in the pricing catalog or the config. */
  readonly actualUsd: number | null;
  readonly uncompressedUsd: number | null;
  readonly savedUsd: number | null;
  /** The keep model that decided what this request's compression folded (its id), when the ledger knows it. */
  readonly keepModel?: string;
}

/** What the proxy knows about a request once its last upstream call is done. */
export interface RequestAccount {
  readonly provider: 'anthropic' | 'openai';
  readonly model: string;
  /** Usage of each upstream call, in order; the first is the request the client made. */
  readonly calls: readonly BilledUsage[];
  readonly savedFresh: number;
  readonly savedRepeat: number;
  /**
   * Estimated tokens the proxy added (billed, but not the client's): the distil tool definitions and the
   * distil exchanges it spliced back into the history.
   */
  readonly injectedTokens: number;
  readonly expands: number;
}

/** USD for a usage at a model's list prices (prices are per million tokens). */
export function costUsd(usage: BilledUsage, price: ModelPrice): number {
  return (
    (usage.input * price.input +
      usage.cacheWrite * price.cacheWrite5m +
      usage.cacheRead * price.cacheRead +
      usage.output * price.output) /
    1e6
  );
}

/**
 * The uncompressed estimate: the first call's billed usage less the distil tool definitions and spliced
 * distil exchanges, with the removed tokens put back where they would have been billed — tokens of
 * blocks first sent now as cache writes when the request wrote the cache (else fresh input), tokens of
 * blocks sent before as cache reads when it read the cache (else input) — and the output of the whole
 * request (the model writes its answer either way). What Distil added comes out of the billed part only:
 * a call billed less than that (a stream without usage bills nothing the proxy sees) must still count
 * every removed token, or the estimate would claim more was removed than was there. Expand round trips
 * are extra calls the client would not have made, so they count only against Distil. Token counts are
 * o200k estimates; the billed side is the provider's own figure.
 */
export function uncompressedUsage(account: RequestAccount): BilledUsage {
  const first = account.calls[0] ?? NO_USAGE;
  const output = account.calls.reduce((sum, call) => sum + call.output, 0);
  // The added tool definitions sit at the very start of the prompt: in the cached part when there is one.
  let injected = account.injectedTokens;
  const take = (bucket: number): number => {
    const taken = Math.min(bucket, injected);
    injected -= taken;
    return bucket - taken;
  };
  let cacheRead = take(first.cacheRead);
  let cacheWrite = take(first.cacheWrite);
  let input = take(first.input);
  if (first.cacheWrite > 0) cacheWrite += account.savedFresh;
  else input += account.savedFresh;
  if (first.cacheRead > 0) cacheRead += account.savedRepeat;
  else input += account.savedRepeat;
  return { input, cacheWrite, cacheRead, output };
}

/** Running totals of everything the proxy forwarded. */
export interface SavingsTotals {
  readonly requests: number;
  readonly billed: BilledUsage;
  readonly savedTokens: number;
  readonly expands: number;
  /** Over priced requests only. */
  readonly actualUsd: number;
  readonly uncompressedUsd: number;
  readonly savedUsd: number;
  readonly unpricedRequests: number;
}

/** Prices each finished request and keeps the totals; listeners see every request (content-free). */
export class SavingsLedger {
  #totals: SavingsTotals = {
    requests: 0,
    billed: NO_USAGE,
    savedTokens: 0,
    expands: 0,
    actualUsd: 0,
    uncompressedUsd: 0,
    savedUsd: 0,
    unpricedRequests: 0,
  };
  readonly #listeners: ((savings: RequestSavings) => void)[] = [];

  constructor(
    private readonly pricing: PricingConfig,
    /** The id of the keep model the proxy compresses with, recorded on every request. */
    private readonly keepModel?: string,
  ) {}

  /** Calls `listener` after every recorded request. */
  onRecord(listener: (savings: RequestSavings) => void): void {
    this.#listeners.push(listener);
  }

  /** Prices and records one finished request. */
  record(account: RequestAccount): RequestSavings {
    const billed = account.calls.reduce(addUsage, NO_USAGE);
    const price = priceOf(account.model, this.pricing);
    const actualUsd = price ? account.calls.reduce((sum, call) => sum + costUsd(call, price), 0) : null;
    const uncompressed = uncompressedUsage(account);
    const uncompressedUsd = price ? costUsd(uncompressed, price) : null;
    const savings: RequestSavings = {
      provider: account.provider,
      model: account.model,
      billed,
      uncompressed,
      upstreamCalls: account.calls.length,
      savedTokens: { fresh: account.savedFresh, repeat: account.savedRepeat },
      expands: account.expands,
      actualUsd,
      uncompressedUsd,
      savedUsd: actualUsd !== null && uncompressedUsd !== null ? uncompressedUsd - actualUsd : null,
      ...(this.keepModel ? { keepModel: this.keepModel } : {}),
    };
    const t = this.#totals;
    this.#totals = {
      requests: t.requests + 1,
      billed: addUsage(t.billed, billed),
      savedTokens: t.savedTokens + account.savedFresh + account.savedRepeat,
      expands: t.expands + account.expands,
      actualUsd: t.actualUsd + (actualUsd ?? 0),
      uncompressedUsd: t.uncompressedUsd + (uncompressedUsd ?? 0),
      savedUsd: t.savedUsd + (savings.savedUsd ?? 0),
      unpricedRequests: t.unpricedRequests + (price ? 0 : 1),
    };
    for (const listener of this.#listeners) listener(savings);
    return savings;
  }

  /** The totals so far. */
  totals(): SavingsTotals {
    return this.#totals;
  }
}

function priceOf(model: string, pricing: PricingConfig): ModelPrice | null {
  try {
    return resolvePrice(model, pricing).price;
  } catch {
    return null;
  }
}
