import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { forwardableHeaders } from './hop-by-hop.js';
import type { UpstreamResponse } from './upstream.js';

/** Per-request timing: the proxy's own overhead is the total minus the time spent waiting upstream. */
export class ExchangeClock {
  readonly started = performance.now();
  upstreamMs = 0;
  /** The overhead the response reported in `x-distil-overhead-ms` (null until its headers went out). */
  reportedMs: number | null = null;

  /** Milliseconds spent in the proxy so far (never negative). */
  overheadMs(): number {
    return Math.max(0, performance.now() - this.started - this.upstreamMs);
  }
}

/** The response headers the proxy adds: its overhead (total − upstream) and the tokens it removed. */
export function distilHeaders(clock: ExchangeClock, savedTokens: number | null): Record<string, string> {
  clock.reportedMs = clock.overheadMs();
  return {
    'x-distil-overhead-ms': clock.reportedMs.toFixed(3),
    ...(savedTokens !== null ? { 'x-distil-saved-tokens': String(savedTokens) } : {}),
  };
}

/**
 * Relays an upstream response as it is: status, end-to-end headers and the body streamed through
 * unbuffered (errors included — a 4xx or 5xx reaches the client with its own status and body).
 */
export async function relayResponse(
  res: ServerResponse,
  upstream: UpstreamResponse,
  extraHeaders: Record<string, string>,
): Promise<void> {
  res.writeHead(upstream.status, { ...forwardableHeaders(upstream.headers), ...extraHeaders });
  await pipeline(upstream.body, res);
}

/** Reads a whole upstream body, adding the time it took to the clock's upstream share. */
export async function readUpstreamBody(upstream: UpstreamResponse, clock: ExchangeClock): Promise<Buffer> {
  const started = performance.now();
  const chunks: Buffer[] = [];
  for await (const chunk of upstream.body) chunks.push(chunk as Buffer);
  clock.upstreamMs += performance.now() - started;
  return Buffer.concat(chunks);
}

/** Sends a complete body with the upstream's headers (re-framed: its Content-Length no longer applies). */
export function sendBody(
  res: ServerResponse,
  status: number,
  upstreamHeaders: UpstreamResponse['headers'],
  body: Buffer,
  extraHeaders: Record<string, string>,
): void {
  res.writeHead(status, {
    ...forwardableHeaders(upstreamHeaders, { dropFraming: true, drop: ['content-encoding'] }),
    'content-length': String(body.length),
    ...extraHeaders,
  });
  res.end(body);
}
