import type { IncomingMessage } from 'node:http';

/** Reads a whole request body. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The header that ties every upstream call to the agent request it serves (set by the tap). */
export const EXCHANGE_HEADER = 'x-harness-exchange';

/** The exchange number a request carries, or null. */
export function exchangeOf(req: IncomingMessage): number | null {
  const raw = req.headers[EXCHANGE_HEADER];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Request headers worth keeping in a record: everything but credentials. */
export function recordableHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'authorization' || name === 'x-api-key' || name === 'cookie')
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
