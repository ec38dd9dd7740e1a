import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { forwardableHeaders } from './hop-by-hop.js';
import type { UpstreamResponse } from './upstream.js';

/**
 * The client side of a streamed response: headers once, then text written as it comes, honouring
 * back-pressure (a slow client slows the relay instead of growing a buffer).
 */
export class ClientStream {
  constructor(private readonly res: ServerResponse) {}

  /** Sends the status line and headers: the upstream's end-to-end headers plus Distil's. */
  open(upstream: UpstreamResponse, extra: Record<string, string>): void {
    this.res.writeHead(200, {
      ...forwardableHeaders(upstream.headers, { dropFraming: true, drop: ['content-encoding'] }),
      ...extra,
    });
    // Events are small and latency matters more than packet count.
    this.res.socket?.setNoDelay(true);
    this.res.flushHeaders();
  }

  /** Whether the client is still there. */
  get connected(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  /** Writes text, waiting for the socket to drain when its buffer is full. */
  async write(text: string): Promise<void> {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!this.res.write(text)) await Promise.race([once(this.res, 'drain'), once(this.res, 'close')]);
  }

  /** Ends the response. */
  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }
}
