import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContextOutcome } from './context/compress-context.js';
import type { DialectTools } from './expand/distil-tools.js';
import { forwardableHeaders } from './http/hop-by-hop.js';
import type { ExchangeClock } from './http/relay.js';
import { sendUpstream, type UpstreamResponse, upstreamUrl } from './http/upstream.js';
import type { ProxyRuntime } from './runtime.js';
import type { BilledUsage } from './savings/billed-usage.js';
import type { ProxySession } from './session/proxy-session.js';

/** One client request on a provider endpoint, after its body was read and (when possible) rewritten. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly rt: ProxyRuntime;
  readonly clock: ExchangeClock;
  /** Upstream origin (with any path prefix) for this dialect. */
  readonly upstreamBase: string;
  /** Aborted when the client goes away, so upstream work stops too. */
  readonly signal: AbortSignal;
}

/** An exchange whose body the proxy parsed and compressed. */
export interface PreparedExchange extends Exchange {
  readonly session: ProxySession;
  readonly outcome: ContextOutcome;
  /** Whether the distil tools were added (then the expand loop runs). */
  readonly offered: boolean;
  /** Tokens of earlier distil exchanges (calls and expansions) the proxy put back into this request. */
  readonly splicedTokens: number;
  readonly model: string;
  /**
   * What this request's handles need before anyone reads them, done while the request is upstream and
   * awaited before any of the reply is read: the caller's grants for the handles new in it
   * (handle-owners.ts), so a reply the client holds means its handles expand for it on every replica,
   * and the fsyncs of their records (syncs-owed.ts), so they are durable. Never rejects (a grant or sync
   * that fails is logged).
   */
  readonly stored: Promise<void>;
}

/** What preparing an exchange's body adds to it (see PreparedExchange). */
export type Preparation = Omit<PreparedExchange, keyof Exchange>;

/**
 * The exchange with its preparation. Every field is named rather than spread from the exchange: the
 * spread went through V8's generic object copy on every request (~9 µs of a warm request's ~450 µs in a
 * CPU profile), a literal of fixed shape does not.
 */
export function prepared(exchange: Exchange, preparation: Preparation): PreparedExchange {
  const { req, res, rt, clock, upstreamBase, signal } = exchange;
  const { session, outcome, offered, splicedTokens, model, stored } = preparation;
  return {
    req,
    res,
    rt,
    clock,
    upstreamBase,
    signal,
    session,
    outcome,
    offered,
    splicedTokens,
    model,
    stored,
  };
}

/**
 * Headers for a request the proxy sends upstream: the client's end-to-end headers (credentials
 * untouched), without Distil's own and with identity encoding so the response can be read.
 */
export function upstreamHeaders(exchange: Exchange, rewritten: boolean): Record<string, string | string[]> {
  const headers = forwardableHeaders(exchange.req.headers, {
    dropFraming: rewritten,
    dropDistil: true,
    drop: ['accept-encoding'],
  });
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** POSTs a body to the exchange's upstream at the client's own path, counting the wait as upstream time. */
export async function postUpstream(
  exchange: Exchange,
  body: Buffer | string,
  rewritten: boolean,
): Promise<UpstreamResponse> {
  exchange.clock.upstreamCalls += 1;
  const response = await sendUpstream(exchange.rt.agent, {
    method: exchange.req.method ?? 'POST',
    url: upstreamUrl(exchange.upstreamBase, exchange.req.url ?? '/'),
    headers: upstreamHeaders(exchange, rewritten),
    body,
    signal: exchange.signal,
  });
  exchange.clock.upstreamMs += response.headersMs;
  return response;
}

/** Tokens saved in a request, as the `x-distil-saved-tokens` header reports them. */
export async function savedTokensOf(outcome: ContextOutcome | null): Promise<number | null> {
  if (!outcome) return null;
  const { fresh, repeat } = await outcome.saved;
  return fresh + repeat;
}

/** Whether an upstream response is a server-sent event stream. */
export function isEventStream(response: UpstreamResponse): boolean {
  return String(response.headers['content-type'] ?? '').includes('text/event-stream');
}

/**
 * Records a finished exchange in the savings ledger: its billed upstream calls priced against the
 * uncompressed estimate. `tools` are the distil tools in this dialect (what offering them cost); they and
 * the distil exchanges spliced back into the request are what Distil added to it.
 */
export async function recordExchange(
  exchange: PreparedExchange,
  provider: 'anthropic' | 'openai',
  model: string,
  tools: DialectTools,
  calls: BilledUsage[],
  expands: number,
): Promise<void> {
  const saved = await exchange.outcome.saved;
  exchange.rt.ledger.record({
    provider,
    model,
    calls,
    savedFresh: saved.fresh,
    savedRepeat: saved.repeat,
    injectedTokens: (exchange.offered ? tools.tokens() : 0) + exchange.splicedTokens,
    expands,
  });
}
