import { type Exchange, postUpstream } from '../exchange.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { pathOf } from '../server/routes.js';
import { type BypassReason, bypassReasonOf, errorLabel } from './part-failure.js';

/**
 * Records that Distil stood aside for an exchange: the `x-distil-bypass` header its response will carry,
 * a content-free log line (the error's class and code, never its message) and the bypass metric.
 */
export function standAside(exchange: Exchange, reason: BypassReason, error: unknown, action: string): void {
  exchange.clock.bypass ??= reason;
  const { req, rt } = exchange;
  rt.log(`${req.method} ${pathOf(req.url)}: stood aside (${reason}: ${errorLabel(error)}): ${action}`);
  rt.onBypass?.(reason);
}

/**
 * Fails open: a request Distil could not prepare (its store down or full, its keep model or a transform
 * throwing, a body too deep to walk) goes upstream byte for byte as the client sent it, and the client
 * gets the upstream's own answer — streamed or not — with `x-distil-bypass` naming why. Only valid while
 * nothing was sent upstream yet, so no request is ever made twice.
 */
export async function forwardUntouched(exchange: Exchange, raw: Buffer, error: unknown): Promise<void> {
  standAside(exchange, bypassReasonOf(error), error, 'forwarded untouched');
  const upstream = await postUpstream(exchange, raw, false);
  await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
}
