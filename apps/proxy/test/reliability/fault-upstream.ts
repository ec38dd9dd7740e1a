import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AnthropicBlock,
  anthropicEvents,
  anthropicMessage,
  openaiChunks,
  openaiCompletion,
  responseObject,
  responsesEvents,
} from '../provider-wire.js';

/**
 * What the upstream does with a request:
 * - `ok`: a normal reply in the endpoint's wire format (JSON, or SSE when the request asks to stream);
 * - `status`: an error status with a body (JSON, or a string sent as is) and headers (retry-after…);
 * - `slow`: a normal reply after `headersMs`, with `gapMs` between streamed events;
 * - `gated`: a normal reply once `gate` settles (a model still thinking, for as long as a test needs);
 * - `hang`: never answers (the client's timeout is what ends it);
 * - `reset`: streams `afterEvents` events of a normal reply (a JSON reply: half its body), then destroys
 *   the socket;
 * - `sse`: a 200 event stream of exactly these chunks (malformed on purpose), then `end` or a reset.
 * `times` limits a fault to the first n requests that name it; later ones get `ok`.
 */
export type Fault =
  | { readonly kind: 'ok' }
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      readonly times?: number;
    }
  | { readonly kind: 'slow'; readonly headersMs: number; readonly gapMs?: number }
  | { readonly kind: 'gated'; readonly gate: Promise<unknown> }
  | { readonly kind: 'hang' }
  | { readonly kind: 'reset'; readonly afterEvents: number }
  | { readonly kind: 'sse'; readonly chunks: readonly (string | Buffer)[]; readonly reset?: boolean };

/** A request the upstream received, and whether its connection closed before the reply ended. */
export interface FaultRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body exactly as received. */
  readonly bytes: Buffer;
  /** Set once the client side went away before the reply finished (a proxy aborting upstream). */
  aborted: boolean;
}

/** The header that names the fault a request should meet (forwarded by the proxy like any header). */
export const FAULT_HEADER = 'x-test-fault';

/** The reply text every `ok` answer carries. */
export const OK_TEXT = 'The build is green again after the fix to the parser.';

/**
 * A stand-in provider upstream on 127.0.0.1 that injects faults, for Anthropic Messages, OpenAI Chat
 * Completions and Responses. Built on the exact wire formats of ../provider-wire.ts; each request names its fault by
 * the FAULT_HEADER, so concurrent tests do not share a script.
 */
export class FaultUpstream {
  readonly received: FaultRequest[] = [];
  readonly #faults = new Map<string, Fault>();
  readonly #uses = new Map<string, number>();
  #server: Server | null = null;
  url = '';

  /** Registers a fault under a name requests can give in FAULT_HEADER. */
  define(name: string, fault: Fault): this {
    this.#faults.set(name, fault);
    this.#uses.set(name, 0);
    return this;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const record: FaultRequest = {
          path: req.url ?? '/',
          headers: req.headers,
          body: bytes.toString('utf8'),
          bytes,
          aborted: false,
        };
        this.received.push(record);
        res.on('close', () => {
          if (!res.writableFinished) record.aborted = true;
        });
        void this.#answer(record, res).catch(() => res.destroy());
      });
    });
    this.#server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The fault a request meets: the one it names (within its `times`), else `ok`. */
  #faultOf(record: FaultRequest): Fault {
    const name = record.headers[FAULT_HEADER];
    const fault = typeof name === 'string' ? this.#faults.get(name) : undefined;
    if (!fault || typeof name !== 'string') return { kind: 'ok' };
    const used = (this.#uses.get(name) ?? 0) + 1;
    this.#uses.set(name, used);
    if (fault.kind === 'status' && fault.times !== undefined && used > fault.times) return { kind: 'ok' };
    return fault;
  }

  async #answer(record: FaultRequest, res: ServerResponse): Promise<void> {
    const fault = this.#faultOf(record);
    if (fault.kind === 'hang') return;
    if (fault.kind === 'status') {
      const body = typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
      const type = typeof fault.body === 'string' ? 'text/html' : 'application/json';
      res.writeHead(fault.status, { 'content-type': type, ...fault.headers });
      res.end(body);
      return;
    }
    if (fault.kind === 'sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of fault.chunks) {
        res.write(chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (fault.reset) res.destroy();
      else res.end();
      return;
    }
    if (fault.kind === 'slow') await sleep(fault.headersMs);
    if (fault.kind === 'gated') await fault.gate;
    const reply = this.#reply(record);
    if (reply.stream === null) {
      const body = JSON.stringify(reply.json);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fault' });
      if (fault.kind === 'reset') {
        // half the body, then the connection drops
        res.write(body.slice(0, body.length >> 1));
        await sleep(5);
        res.destroy();
        return;
      }
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, event] of reply.stream.entries()) {
      if (fault.kind === 'reset' && i >= fault.afterEvents) {
        res.destroy();
        return;
      }
      res.write(event);
      await (fault.kind === 'slow' && fault.gapMs ? sleep(fault.gapMs) : new Promise((r) => setImmediate(r)));
    }
    res.end();
  }

  /**
   * The normal reply for a request: its JSON body, or its SSE events when it asked to stream. The same
   * request always gets the same bytes (a fixed id), so a relayed reply can be compared with a direct one.
   */
  #reply(record: FaultRequest): { json: unknown; stream: string[] | null } {
    const id = 7;
    let json: { stream?: unknown } = {};
    try {
      const parsed: unknown = JSON.parse(record.body);
      if (typeof parsed === 'object' && parsed !== null) json = parsed as { stream?: unknown };
    } catch {
      // a body that is not JSON still gets a reply: the fault under test is elsewhere
    }
    const request = { json };
    const stream = json.stream === true;
    if (record.path.startsWith('/v1/chat/completions')) {
      const reply = { kind: 'openai' as const, content: OK_TEXT };
      return stream
        ? { json: null, stream: [...openaiChunks(reply, id, request), 'data: [DONE]\n\n'] }
        : { json: openaiCompletion(reply, id, request), stream: null };
    }
    if (record.path.startsWith('/v1/responses')) {
      const reply = { kind: 'responses' as const, output: [{ type: 'message' as const, text: OK_TEXT }] };
      return stream
        ? { json: null, stream: responsesEvents(reply, id, request) }
        : { json: responseObject(reply, id, request), stream: null };
    }
    const content: AnthropicBlock[] = [{ type: 'text', text: OK_TEXT }];
    const reply = { kind: 'anthropic' as const, content };
    return stream
      ? { json: null, stream: anthropicEvents(reply, id, request) }
      : { json: anthropicMessage(reply, id, request), stream: null };
  }
}

/** The SSE events of the normal Anthropic reply to a request for `model` (to build malformed streams from). */
export function anthropicStream(model: string): string[] {
  return anthropicEvents({ kind: 'anthropic', content: [{ type: 'text', text: OK_TEXT }] }, 7, {
    json: { model },
  });
}

/** The SSE chunks of the normal Chat Completions reply to a request for `model`, `[DONE]` included. */
export function chatStream(model: string): string[] {
  return [...openaiChunks({ kind: 'openai', content: OK_TEXT }, 7, { json: { model } }), 'data: [DONE]\n\n'];
}
