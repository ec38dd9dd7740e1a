import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { forwardableHeaders } from './hop-by-hop.js';
import { readWhole } from './request-body.js';
import type { UpstreamResponse } from './upstream.js';

/**
 * Per-request timing — the proxy's own overhead is the total minus the time spent waiting upstream — and
 * what the response headers report beside it: whether Distil stood aside, and why.
 */
export class ExchangeClock {
  readonly started = performance.now();
  upstreamMs = 0;
  /** Requests sent upstream so far: before the first, a failure can still send the client's bytes as they came. */
  upstreamCalls = 0;
  /** Why Distil stood aside for (part of) this request, reported as `x-distil-bypass`; null when it did not. */
  bypass: string | null = null;
  /** The overhead the response reported in `x-distil-overhead-ms` (null until its headers went out). */
  reportedMs: number | null = null;

  /** Milliseconds spent in the proxy so far (never negative). */
  overheadMs(): number {
    return Math.max(0, performance.now() - this.started - this.upstreamMs);
  }
}

/** The response headers the proxy adds: its overhead (total − upstream), the tokens it removed, any bypass. */
export function distilHeaders(clock: ExchangeClock, savedTokens: number | null): Record<string, string> {
  clock.reportedMs = clock.overheadMs();
  return {
    'x-distil-overhead-ms': clock.reportedMs.toFixed(3),
    ...(savedTokens !== null ? { 'x-distil-saved-tokens': String(savedTokens) } : {}),
    ...(clock.bypass !== null ? { 'x-distil-bypass': clock.bypass } : {}),
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
  await relayBody(upstream.body, res);
}

/**
 * Pipes a body into the response, as `stream.pipeline` would: back-pressure honoured, resolved once the
 * response is finished; a body that fails or stops early destroys the response (the client sees a broken
 * stream, never a clean end), and a client that goes away destroys the body. Written out because
 * `pipeline` makes an AbortController per call and aborts it on success, which builds a DOMException with
 * a stack trace: ~5% of the busy CPU in a pass-through profile of the proxy here.
 */
function relayBody(body: Readable, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null): void => {
      body.off('error', onError).off('close', onBodyClose);
      res.off('error', onError).off('close', onResClose).off('finish', onFinish);
      if (!error) {
        resolve();
        return;
      }
      body.unpipe(res);
      body.destroy();
      res.destroy(error);
      reject(error);
    };
    const prematureClose = (): Error =>
      Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    const onError = (error: Error): void => settle(error);
    const onBodyClose = (): void => {
      if (!body.readableEnded) settle(prematureClose());
    };
    const onResClose = (): void => {
      if (!res.writableFinished) settle(prematureClose());
    };
    const onFinish = (): void => settle(null);
    body.on('error', onError).on('close', onBodyClose);
    res.on('error', onError).on('close', onResClose).on('finish', onFinish);
    body.pipe(res);
  });
}

/** Reads a whole upstream body, adding the time it took to the clock's upstream share. */
export async function readUpstreamBody(upstream: UpstreamResponse, clock: ExchangeClock): Promise<Buffer> {
  const started = performance.now();
  const body = await readWhole(upstream.body);
  clock.upstreamMs += performance.now() - started;
  return body;
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
