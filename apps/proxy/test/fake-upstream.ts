import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake upstream received, byte for byte. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: any;
}

/** One block of a scripted Anthropic reply. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string };

/** A scripted reply; a function is called with the request to build it. */
export type Reply =
  | {
      kind: 'anthropic';
      content: AnthropicBlock[];
      stopReason?: string;
      usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
      /** Streaming only: cut the connection after this many events (simulates a broken upstream). */
      cutAfterEvents?: number;
      /** Streaming only: send an `error` event after this many events. */
      errorAfterEvents?: number;
    }
  | {
      kind: 'openai';
      content?: string | null;
      toolCalls?: { id: string; name: string; arguments: string }[];
      finishReason?: string;
      usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
      cutAfterEvents?: number;
    }
  | {
      kind: 'responses';
      output: ({ type: 'message'; text: string } | { type: 'function_call'; call_id: string; name: string; arguments: string })[];
      usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number };
    }
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> };

type Script = Reply | ((request: ReceivedRequest) => Reply);

/**
 * A local stand-in for api.anthropic.com and api.openai.com that speaks their exact wire formats: JSON
 * replies, and SSE streams with every event the official SDKs need (Anthropic: message_start,
 * content_block_start, text/input_json/thinking/signature deltas, content_block_stop, ping, message_delta
 * with stop_reason and usage, message_stop; OpenAI: chunks with role, content and tool_calls deltas, a
 * final chunk with finish_reason, a usage chunk when asked, then [DONE]). Replies are scripted in order.
 */
export class FakeUpstream {
  readonly received: ReceivedRequest[] = [];
  /** Ids of the messages and completions served, in order. */
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
        const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
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
      // Unscripted: a pass-through probe; echo what arrived.
      const body = JSON.stringify({ echo: { method: request.method, path: request.path, body: request.body } });
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'fake', connection: 'keep-alive' });
      res.end(body);
      return;
    }
    const reply = typeof next === 'function' ? next(request) : next;
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    }
    const stream = request.json?.stream === true;
    const id = ++this.#counter;
    this.served.push(reply.kind === 'anthropic' ? `msg_${id}` : reply.kind === 'openai' ? `chatcmpl-${id}` : `resp_${id}`);
    if (reply.kind === 'responses') {
      if (stream) await this.#responsesStream(reply, id, request, res);
      else sendJson(res, responseObject(reply, id, request));
    } else if (reply.kind === 'anthropic') {
      if (stream) await this.#anthropicStream(reply, id, request, res);
      else sendJson(res, anthropicMessage(reply, id, request));
    } else if (stream) await this.#openaiStream(reply, id, request, res);
    else sendJson(res, openaiCompletion(reply, id, request));
  }

  async #anthropicStream(reply: Extract<Reply, { kind: 'anthropic' }>, id: number, request: ReceivedRequest, res: ServerResponse) {
    const events: string[] = [];
    const event = (name: string, data: unknown) => events.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const message = anthropicMessage(reply, id, request);
    event('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } },
    });
    reply.content.forEach((block, index) => {
      if (block.type === 'text') {
        event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        if (index === 0) event('ping', { type: 'ping' });
        for (const piece of pieces(block.text)) {
          event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        }
      } else if (block.type === 'thinking') {
        event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        for (const piece of pieces(block.thinking)) {
          event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
        }
        event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
      } else {
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        for (const piece of pieces(JSON.stringify(block.input))) {
          event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
        }
      }
      event('content_block_stop', { type: 'content_block_stop', index });
    });
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    });
    event('message_stop', { type: 'message_stop' });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
    for (const [i, text] of events.entries()) {
      if (reply.cutAfterEvents !== undefined && i >= reply.cutAfterEvents) {
        res.destroy();
        return;
      }
      if (reply.errorAfterEvents !== undefined && i >= reply.errorAfterEvents) {
        res.end(
          `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
        );
        return;
      }
      res.write(text);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  }

  async #responsesStream(reply: Extract<Reply, { kind: 'responses' }>, id: number, request: ReceivedRequest, res: ServerResponse) {
    const final = responseObject(reply, id, request);
    const opening = { ...final, status: 'in_progress', output: [], usage: null };
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response: opening },
      { type: 'response.in_progress', response: opening },
    ];
    final.output.forEach((item, output_index) => {
      if (item.type === 'message') {
        const text = item.content[0]!.text;
        const part = { type: 'output_text', text: '', annotations: [] };
        events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
        events.push({ type: 'response.content_part.added', item_id: item.id, output_index, content_index: 0, part });
        for (const delta of pieces(text)) {
          events.push({ type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
        }
        events.push({ type: 'response.output_text.done', item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
        events.push({ type: 'response.content_part.done', item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
      } else {
        events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of pieces(item.arguments)) {
          events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta });
        }
        events.push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: item.arguments });
      }
      events.push({ type: 'response.output_item.done', output_index, item });
    });
    events.push({ type: 'response.completed', response: final });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_${id}` });
    for (const [sequence_number, event] of events.entries()) {
      res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  }

  async #openaiStream(reply: Extract<Reply, { kind: 'openai' }>, id: number, request: ReceivedRequest, res: ServerResponse) {
    const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1_700_000_000 + id, model: request.json.model };
    const withUsage = request.json?.stream_options?.include_usage === true;
    const chunks: unknown[] = [];
    const chunk = (delta: unknown, finish: string | null = null) =>
      chunks.push({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(withUsage ? { usage: null } : {}) });
    chunk({ role: 'assistant', content: '', refusal: null });
    for (const piece of pieces(reply.content ?? '')) chunk({ content: piece });
    (reply.toolCalls ?? []).forEach((call, index) => {
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
      for (const piece of pieces(call.arguments)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    });
    chunk({}, finishOf(reply));
    if (withUsage) chunks.push({ ...base, choices: [], usage: openaiUsage(reply) });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_${id}` });
    for (const [i, value] of chunks.entries()) {
      if (reply.cutAfterEvents !== undefined && i >= reply.cutAfterEvents) {
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(value)}\n\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end('data: [DONE]\n\n');
  }
}

/** Splits a text into up to three pieces, as a model streams it. */
function pieces(text: string): string[] {
  if (text.length < 3) return text.length === 0 ? [] : [text];
  const a = Math.floor(text.length / 3);
  return [text.slice(0, a), text.slice(a, 2 * a), text.slice(2 * a)];
}

function sendJson(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_json' });
  res.end(body);
}

/** The non-streaming Anthropic message for a reply. */
export function anthropicMessage(reply: Extract<Reply, { kind: 'anthropic' }>, id: number, request: ReceivedRequest) {
  const usage = reply.usage ?? { input_tokens: 100, output_tokens: 20 };
  return {
    id: `msg_${id}`,
    type: 'message' as const,
    role: 'assistant' as const,
    model: request.json?.model ?? 'claude-sonnet-4-5',
    content: reply.content.map((block) => (block.type === 'text' ? { ...block, citations: null } : block)),
    stop_reason: reply.stopReason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  };
}

function finishOf(reply: Extract<Reply, { kind: 'openai' }>): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

function openaiUsage(reply: Extract<Reply, { kind: 'openai' }>) {
  const usage = reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };
}

/** The non-streaming Chat Completions response for a reply. */
export function openaiCompletion(reply: Extract<Reply, { kind: 'openai' }>, id: number, request: ReceivedRequest) {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 1_700_000_000 + id,
    model: request.json?.model ?? 'gpt-4o',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: finishOf(reply),
      },
    ],
    usage: openaiUsage(reply),
  };
}

/** The Responses API object for a reply. */
export function responseObject(reply: Extract<Reply, { kind: 'responses' }>, id: number, request: ReceivedRequest) {
  const usage = reply.usage ?? { input_tokens: 100, output_tokens: 20 };
  const output = reply.output.map((item, i) =>
    item.type === 'message'
      ? {
          id: `msg_${id}_${i}`,
          type: 'message' as const,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: item.text, annotations: [] as unknown[] }],
        }
      : { id: `fc_${id}_${i}`, type: 'function_call' as const, status: 'completed', call_id: item.call_id, name: item.name, arguments: item.arguments },
  );
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: 1_700_000_000 + id,
    status: 'completed',
    model: request.json?.model ?? 'gpt-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}
