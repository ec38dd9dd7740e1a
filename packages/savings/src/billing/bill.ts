import type { ModelPrice } from '@distil/contract';

/** What one upstream call was billed, in tokens per bucket and in USD at list prices. */
export interface CallBill {
  /** Input at the full input price (not read from or written to the cache). */
  readonly input: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
  readonly output: number;
  readonly usd: number;
}

/** Prices token buckets at a model's list prices (USD per million tokens, from the pricing catalog). */
export function priceCall(tokens: Omit<CallBill, 'usd'>, price: ModelPrice): CallBill {
  const usd =
    (tokens.input * price.input +
      tokens.cacheWrite5m * price.cacheWrite5m +
      tokens.cacheWrite1h * price.cacheWrite1h +
      tokens.cacheRead * price.cacheRead +
      tokens.output * price.output) /
    1e6;
  return { ...tokens, usd };
}

/** The sum of several bills. */
export function sumBills(bills: readonly CallBill[]): CallBill {
  const total = { input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, usd: 0 };
  for (const b of bills) {
    total.input += b.input;
    total.cacheWrite5m += b.cacheWrite5m;
    total.cacheWrite1h += b.cacheWrite1h;
    total.cacheRead += b.cacheRead;
    total.output += b.output;
    total.usd += b.usd;
  }
  return total;
}

/** All input tokens of a bill, whatever bucket they were billed in. */
export function inputTokens(bill: CallBill): number {
  return bill.input + bill.cacheWrite5m + bill.cacheWrite1h + bill.cacheRead;
}
