import { Transform, type TransformCallback } from 'node:stream';
import type { Exchange } from '../exchange.js';
import { forwardableHeaders } from '../http/hop-by-hop.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { BodyTooLargeError } from '../http/request-body.js';
import { sendUpstream, upstreamUrl } from '../http/upstream.js';

/** Counts bytes as they stream and fails the stream past the limit (chunked bodies declare no length). */
class BodyLimit extends Transform {
  #seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.limit) done(new BodyTooLargeError(this.limit));
    else done(null, chunk);
  }
}

/**
 * Any endpoint the proxy does not handle: method, path, query, end-to-end headers and body go upstream
 * untouched and streamed both ways (no compression, no buffering).
 */
export async function passThrough(exchange: Exchange): Promise<void> {
  const { req } = exchange;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const upstream = await sendUpstream(exchange.rt.agent, {
    method: req.method ?? 'GET',
    url: upstreamUrl(exchange.upstreamBase, req.url ?? '/'),
    headers: forwardableHeaders(req.headers, { dropDistil: true }),
    body: hasBody ? req.pipe(new BodyLimit(exchange.rt.config.maxBodyBytes)) : null,
    signal: exchange.signal,
  });
  exchange.clock.upstreamMs += upstream.headersMs;
  await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
}
