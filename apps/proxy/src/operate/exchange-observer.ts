import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dialect } from '../http/provider-errors.js';
import type { ExchangeClock } from '../http/relay.js';

/**
 * A provider request as the proxy received it, handed to the observer before the proxy handles it. The
 * body and headers are the client's own (credentials included): an observer may forward them upstream
 * but must never store or log them.
 */
export interface ObservedExchange {
  readonly dialect: Dialect;
  /** `METHOD path` of the provider route, e.g. `POST /v1/messages`. */
  readonly route: string;
  /** The request target (path and query) as the client sent it. */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly res: ServerResponse;
  readonly clock: ExchangeClock;
  /** Upstream origin (with any path prefix) for this dialect. */
  readonly upstreamBase: string;
}

/**
 * Called once per provider request the proxy handles (not for pass-through or bypassed ones). It runs on
 * the hot path: it must return at once and do its work on the response's events.
 */
export type ExchangeObserver = (exchange: ObservedExchange) => void;
