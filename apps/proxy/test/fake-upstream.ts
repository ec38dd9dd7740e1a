import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AnthropicReply,
  anthropicErrorEvent,
  anthropicEvents,
  anthropicMessage,
  type OpenAIReply,
  openaiChunks,
  openaiCompletion,
  type ResponsesReply,
  responseObject,
  responsesEvents,
  type WireRequest,
} from './provider-wire.js';

export type { AnthropicBlock } from './provider-wire.js';

/** A request the fake upstream received, byte for byte. */
export interface ReceivedRequest extends WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A scripted reply (by provider), or a plain status with a JSON body. */
export type Reply =
  | AnthropicReply
  | OpenAIReply
  | ResponsesReply
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> };

type Script = Reply | ((request: ReceivedRequest) => Reply);

/**
 * A local stand-in for api.anthropic.com and api.openai.com on 127.0.0.1 that speaks their exact wire
 * formats (provider-wire.ts): JSON replies and SSE streams. Replies are scripted in order, each either
 * fixed or built from the request it answers; an unscripted request is echoed (pass-through probes).
 */
export class FakeUpstream {
  readonly received: ReceivedRequest[] = [];
  /** Ids of the messages, completions and responses served, in order. */
  readonly served: string[] = [];
  readonly #script: Script[] = [];
  #server: Server | null = null;
  #counter = 0;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          json,
        };
        this.received.push(request);
        void this.#answer(request, res);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
    return this;
  }

  /** Queues replies, served in order (one per request). */
  script(...replies: Script[]): void {
    this.#script.push(...replies);
  }

  /** Forgets received requests and pending replies. */
  reset(): void {
    this.received.length = 0;
    this.served.length = 0;
    this.#script.length = 0;
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  async #answer(request: ReceivedRequest, res: ServerResponse): Promise<void> {
    const next = this.#script.shift();
    if (!next) {
      const body = JSON.stringify({
        echo: { method: request.method, path: request.path, body: request.body },
      });
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-upstream': 'fake',
        connection: 'keep-alive',
      });
      res.end(body);
      return;
    }
    const reply = typeof next === 'function' ? next(request) : next;
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    }
    const id = ++this.#counter;
    const stream = request.json?.stream === true;
    if (reply.kind === 'anthropic') {
      this.served.push(`msg_${id}`);
      if (!stream) return sendJson(res, anthropicMessage(reply, id, request));
      const events = anthropicEvents(reply, id, request);
      if (reply.errorAfterEvents !== undefined) {
        events.splice(reply.errorAfterEvents, events.length, anthropicErrorEvent('Overloaded'));
      }
      return writeStream(
        res,
        events,
        { 'request-id': `req_${id}`, 'cache-control': 'no-cache' },
        reply.cutAfterEvents,
      );
    }
    if (reply.kind === 'openai') {
      this.served.push(`chatcmpl-${id}`);
      if (!stream) return sendJson(res, openaiCompletion(reply, id, request));
      const chunks = [...openaiChunks(reply, id, request), 'data: [DONE]\n\n'];
      return writeStream(res, chunks, { 'x-request-id': `req_${id}` }, reply.cutAfterEvents);
    }
    this.served.push(`resp_${id}`);
    if (!stream) return sendJson(res, responseObject(reply, id, request));
    return writeStream(res, responsesEvents(reply, id, request), { 'x-request-id': `req_${id}` });
  }
}

function sendJson(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_json' });
  res.end(body);
}

/** Writes events one by one (yielding between them, as a model streams); `cutAfter` drops the connection. */
async function writeStream(
  res: ServerResponse,
  events: readonly string[],
  headers: Record<string, string>,
  cutAfter?: number,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
  for (const [i, event] of events.entries()) {
    if (cutAfter !== undefined && i >= cutAfter) {
      res.destroy();
      return;
    }
    res.write(event);
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}
