import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/** Raised when a request body exceeds the configured limit; answered with 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds the proxy's limit of ${limit} bytes (proxy.maxBodyBytes)`);
    this.name = 'BodyTooLargeError';
  }
}

/** Whether a declared Content-Length already exceeds the limit (checked before reading a byte). */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

/**
 * Reads a whole request body, refusing more than `limit` bytes (whatever Content-Length claims: chunked
 * bodies have none). The provider endpoints need the whole JSON to compress it; everything else streams.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredTooLarge(req, limit)) return Promise.reject(new BodyTooLargeError(limit));
  return readWhole(req, limit, detachAndDestroy);
}

/**
 * Drops a request the proxy stops reading, keeping its connection: what `for await` over a server
 * request does (Node's stream `destroyer` unsets `req.socket` before destroying a server request), so
 * the answer — a 413 for a chunked body over the limit — still goes out on that socket.
 */
function detachAndDestroy(req: Readable): void {
  (req as IncomingMessage as { socket: IncomingMessage['socket'] | null }).socket = null;
  req.destroy();
}

/**
 * Every byte of a stream, joined; a stream that ends early or fails, or grows past `limit`, rejects and is
 * released (destroyed, by default). Plain listeners rather than `for await`, whose async iterator costs
 * an iterator, a promise per chunk and an end-of-stream watcher on every request.
 */
export function readWhole(
  stream: Readable,
  limit = Number.POSITIVE_INFINITY,
  release: (stream: Readable) => void = (s) => s.destroy(),
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | null): void => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        release(stream);
        reject(error);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle(new BodyTooLargeError(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => settle(null);
    const onError = (error: Error): void => settle(error);
    // 'close' before 'end': the peer went away mid-body (what stream.finished calls a premature close).
    const onClose = (): void =>
      settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
