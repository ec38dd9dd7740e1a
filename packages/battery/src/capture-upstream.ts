import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stand-in upstream received: its headers and parsed JSON body. */
export interface CapturedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: provider JSON is read by path
  readonly json: any;
}

/** One content part of a scripted Anthropic reply. */
export type ReplyPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

/**
 * A stand-in for the Anthropic Messages API on 127.0.0.1: it records every request a proxy forwards and
 * answers with a non-streaming message in the wire format (id, type, role, model, content, stop_reason,
 * stop_sequence, usage). Replies are scripted in order; unscripted requests get a one-word text reply.
 * The battery reads what the model would have read from `received`.
 */
export class CaptureUpstream {
  readonly received: CapturedRequest[] = [];
  readonly #script: ReplyPart[][] = [];
  #server: Server | null = null;
  #served = 0;
  url = '';

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          json = null;
        }
        this.received.push({ path: req.url ?? '/', headers: req.headers, json });
        const content = this.#script.shift() ?? [{ type: 'text', text: 'ok' }];
        const id = ++this.#served;
        const body = JSON.stringify({
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model: (json as { model?: unknown } | null)?.model ?? 'claude-sonnet-4-5',
          content,
          stop_reason: content.some((part) => part.type === 'tool_use') ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: 1,
            output_tokens: 1,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Queues the content of the next replies, one per request. */
  script(...replies: ReplyPart[][]): void {
    this.#script.push(...replies);
  }

  /** Forgets replies that were scripted but never asked for. */
  clearScript(): void {
    this.#script.length = 0;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
