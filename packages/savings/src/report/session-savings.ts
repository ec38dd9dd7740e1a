import type { ModelPrice } from '@distil/contract';
import { countTokens, resolvePrice } from '@distil/core';
import { type CallBill, inputTokens, priceCall, sumBills } from '../billing/bill.js';
import type { SessionReplay } from '../replay/replay-session.js';
import { entriesOfBody, toolResultsOf } from '../replay/tool-results.js';
import type { UpstreamCall } from '../upstream/billing-upstream.js';
import { type Fidelity, fidelityOf } from './fidelity.js';

/** Every figure `distil savings` prints for one session, in USD unless named otherwise. */
export interface SessionSavings {
  readonly id: string;
  readonly source: string;
  readonly file: string;
  readonly calls: number;
  readonly skippedLines: number;
  /** Every input token at the full input price: the same requests with no prompt caching. */
  readonly noCache: number;
  /** What the agent's requests cost sent directly, with the provider's prompt caching. */
  readonly cacheOnly: number;
  /** The same through Distil: every upstream call the proxy made, expand round trips included. */
  readonly distil: number;
  /** The cache-only bill with every tool-result token removed: the most compression could save. */
  readonly ceiling: number;
  /** The cache-only bill with each tool result cut to its needed lines: the most a faithful compressor could save. */
  readonly neededOnly: number;
  /** The provider's own bill for the session as the log records it, when it does. */
  readonly recorded: number | null;
  /**
   * Upstream calls through Distil beyond the agent's own (expand round trips), and what the calls that
   * asked for an expansion cost (see beforeReply).
   */
  readonly expandCalls: number;
  readonly expandUsd: number;
  /**
   * Expected cost of shadow sampling at the configured `proxy.shadowSampleRate` (included in `distil`): a
   * sampled request is sent again uncompressed, and shares no cached prefix with what was sent.
   */
  readonly shadowUsd: number;
  /** Cache-write dollars through Distil minus direct: prefix changes and new content written. */
  readonly extraCacheWriteUsd: number;
  /** Tokens of the tool definitions the proxy adds to a request (`distil_expand` …), per request. */
  readonly toolDefinitionTokens: number;
  /** Tool-result tokens as the agent saw them, and as the proxy first forwarded them. */
  readonly toolTokens: { readonly original: number; readonly forwarded: number };
  /** Requests with tool results whose tool results the proxy forwarded byte for byte. */
  readonly passThrough: { readonly requests: number; readonly untouched: number };
  readonly fidelity: Fidelity;
}

/** The figures of one replay. */
export function sessionSavings(
  replay: SessionReplay,
  price?: ModelPrice,
  shadowSampleRate = 0,
): SessionSavings {
  const { session, direct, ceiling, distil } = replay;
  const first = firstCalls(distil.calls);
  const expandCalls = distil.calls.filter((c) => !first.includes(c));
  const expandBill = total(beforeReply(distil.calls));
  const tools = toolTokens(replay, first);
  const shadowUsd = shadowSampleRate * coldUsd(direct.calls, price);
  return {
    id: session.id,
    source: session.source,
    file: session.file,
    calls: session.calls.length,
    skippedLines: session.skippedLines,
    noCache: noCacheUsd(direct.calls, price),
    cacheOnly: direct.bill.usd,
    distil: distil.bill.usd + shadowUsd,
    ceiling: ceiling.bill.usd,
    neededOnly: replay.neededOnly.bill.usd,
    recorded: recordedUsd(replay, price),
    shadowUsd,
    expandCalls: expandCalls.length,
    expandUsd: expandBill.usd,
    extraCacheWriteUsd: cacheWriteUsd(distil.calls, price) - cacheWriteUsd(direct.calls, price),
    toolDefinitionTokens: distilToolTokens(first.at(-1)),
    toolTokens: { original: tools.original, forwarded: tools.forwarded },
    passThrough: tools.passThrough,
    fidelity: fidelityOf(replay),
  };
}

/**
 * The calls of each exchange but the one that answered the agent: what its expand round trips cost, call
 * for call. The answering call is the one direct pays for too (its reply can be thousands of output
 * tokens), so counting it would charge the reply to the expands. The session's total through Distil
 * includes every call either way.
 */
function beforeReply(calls: readonly UpstreamCall[]): UpstreamCall[] {
  const last = new Map<number | null, UpstreamCall>();
  for (const c of calls) last.set(c.exchange, c);
  const answering = new Set(last.values());
  return calls.filter((c) => !answering.has(c));
}

/** The first upstream call of each exchange: the agent's own request as the proxy forwarded it. */
function firstCalls(calls: readonly UpstreamCall[]): UpstreamCall[] {
  const seen = new Set<number | null>();
  return calls.filter((c) => {
    if (seen.has(c.exchange)) return false;
    seen.add(c.exchange);
    return true;
  });
}

const ZERO: CallBill = { input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, usd: 0 };

function total(calls: readonly UpstreamCall[]): CallBill {
  const bills = calls.flatMap((c) => (c.bill ? [c.bill] : []));
  return bills.length === 0 ? ZERO : sumBills(bills);
}

function priceFor(model: string | null, price: ModelPrice | undefined): ModelPrice | null {
  if (price) return price;
  try {
    return resolvePrice(model ?? undefined).price;
  } catch {
    return null;
  }
}

/** The sum over calls of `usd(bill, price)`, each call at its own model's price (or `price`). */
function sumUsd(
  calls: readonly UpstreamCall[],
  price: ModelPrice | undefined,
  usd: (bill: CallBill, p: ModelPrice) => number,
): number {
  let total = 0;
  for (const call of calls) {
    const p = priceFor(call.model, price);
    if (call.bill && p) total += usd(call.bill, p) / 1e6;
  }
  return total;
}

/** Every input token at the full input price. */
const noCacheUsd = (calls: readonly UpstreamCall[], price: ModelPrice | undefined): number =>
  sumUsd(calls, price, (b, p) => inputTokens(b) * p.input + b.output * p.output);

/** Each call's whole input written to the cache (at the input price where writes cost no more). */
const coldUsd = (calls: readonly UpstreamCall[], price: ModelPrice | undefined): number =>
  sumUsd(calls, price, (b, p) => inputTokens(b) * Math.max(p.input, p.cacheWrite5m) + b.output * p.output);

/** What the calls' cache writes cost. */
const cacheWriteUsd = (calls: readonly UpstreamCall[], price: ModelPrice | undefined): number =>
  sumUsd(calls, price, (b, p) => b.cacheWrite5m * p.cacheWrite5m + b.cacheWrite1h * p.cacheWrite1h);

function recordedUsd(replay: SessionReplay, price: ModelPrice | undefined): number | null {
  const calls = replay.session.calls.filter((c) => c.usage !== null);
  if (calls.length === 0) return null;
  let usd = 0;
  for (const call of calls) {
    const p = priceFor(call.model, price);
    if (!p) return null;
    const u = call.usage!;
    usd += priceCall(
      {
        input: u.input,
        cacheWrite5m: u.cacheWrite,
        cacheWrite1h: 0,
        cacheRead: u.cacheRead,
        output: u.output,
      },
      p,
    ).usd;
  }
  return usd;
}

/** Tool-result tokens where each result first appears, before and after the proxy, and pass-through. */
function toolTokens(replay: SessionReplay, first: readonly UpstreamCall[]) {
  const { session } = replay;
  const original = new Map(toolResultsOf(session.entries).map((r) => [r.id, r.text]));
  const seen = new Set<string>();
  let before = 0;
  let after = 0;
  let requests = 0;
  let untouched = 0;
  for (const call of first) {
    const results = toolResultsOf(entriesOfBody(parse(call.body)));
    const fresh = results.filter((r) => !seen.has(r.id) && original.has(r.id));
    if (fresh.length === 0) continue;
    requests++;
    let same = true;
    for (const r of fresh) {
      seen.add(r.id);
      const text = original.get(r.id)!;
      before += countTokens(text);
      after += countTokens(r.text);
      if (r.text !== text) same = false;
    }
    if (same) untouched++;
  }
  return {
    original: before,
    forwarded: after,
    passThrough: { requests, untouched },
  };
}

/** Tokens of the distil tools offered in one forwarded request. */
function distilToolTokens(call: UpstreamCall | undefined): number {
  const body = call ? parse(call.body) : null;
  const tools = (body as { tools?: { name?: unknown; type?: unknown }[] } | null)?.tools ?? [];
  const own = tools.filter((t) => String(t.name ?? '').startsWith('distil_'));
  return own.length === 0 ? 0 : countTokens(JSON.stringify(own));
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
