import type { IncomingMessage } from 'node:http';

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
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredTooLarge(req, limit)) throw new BodyTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
