import type { ServerResponse } from 'node:http';

type Chunk = string | Uint8Array;

function bytesOf(chunk: unknown, encoding: unknown): Buffer | null {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return null;
}

/**
 * A copy of the body bytes one response sends to its client, taken by wrapping that response object's
 * `write` and `end` (only the sampled response is touched; every other response keeps Node's own
 * methods). Copying stops past `limit` bytes and the capture is then marked overflowed.
 */
export class ResponseCapture {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  overflowed = false;

  constructor(
    res: ServerResponse,
    private readonly limit: number,
  ) {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: Chunk, ...rest: unknown[]) => {
      this.#copy(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      if (args.length > 0 && typeof args[0] !== 'function') this.#copy(args[0], args[1]);
      return end(...args);
    }) as ServerResponse['end'];
  }

  /** The bytes sent so far. */
  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  #copy(chunk: unknown, encoding: unknown): void {
    if (this.overflowed || chunk === undefined || chunk === null) return;
    const bytes = bytesOf(chunk, encoding);
    if (!bytes) return;
    this.#size += bytes.length;
    if (this.#size > this.limit) {
      this.overflowed = true;
      this.#chunks.length = 0;
      return;
    }
    // A copy: the caller may reuse its buffer once write() returns.
    this.#chunks.push(Buffer.from(bytes));
  }
}
