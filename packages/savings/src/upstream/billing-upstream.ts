import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelPrice } from '@distil/contract';
import { countTokens, resolvePrice } from '@distil/core';
import { AnthropicPromptCache } from '../billing/anthropic-cache.js';
import { type AnthropicPrompt, anthropicPrompt } from '../billing/anthropic-prompt.js';
import { type CallBill, priceCall } from '../billing/bill.js';
import { OpenAIPromptCache } from '../billing/openai-cache.js';
import { type RenderedPrompt, responsesPrompt } from '../billing/openai-prompt.js';
import { messagesReplyJson, streamMessagesReply } from '../wire/anthropic-sse.js';
import { type ConversationView, messagesView, responsesView } from '../wire/conversation-view.js';
import { MessagesRequest } from '../wire/messages-request.js';
import { ResponsesRequest } from '../wire/responses-request.js';
import { replyItems, streamResponsesReply } from '../wire/responses-sse.js';
import type { ScriptedModel } from '../wire/scripted-reply.js';
import { callsOf, type ScriptedReply } from '../wire/scripted-reply.js';
import { exchangeOf, readBody, recordableHeaders } from './http-body.js';

/** The prompt of a billed call, kept for prefix comparisons (cache busts). */
export type BilledPrompt =
  | { readonly api: 'messages'; readonly prompt: AnthropicPrompt }
  | { readonly api: 'responses'; readonly prompt: RenderedPrompt };

/** One request the fake upstream received, with what it answered and billed. */
export interface UpstreamCall {
  readonly serial: number;
  /** The agent request this call serves (null when it came without the tap's header). */
  readonly exchange: number | null;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly model: string | null;
  readonly view: ConversationView | null;
  readonly reply: ScriptedReply | null;
  readonly bill: CallBill | null;
  readonly billed: BilledPrompt | null;
  /** Prompt tokens the cache holds after this call (for the bust check of the next call). */
  readonly cachedTokens: number;
  /** Why the call was refused (bad body), when it was. */
  readonly error: string | null;
}

/** A running fake upstream. */
export interface BillingUpstream {
  readonly url: string;
  readonly calls: readonly UpstreamCall[];
  close(): Promise<void>;
}

/** Options of the fake upstream. */
export interface BillingUpstreamOptions {
  /** The scripted model that decides every answer. */
  readonly model: ScriptedModel;
  /** Prices by model; default: `resolvePrice` over the shipped catalog. */
  readonly priceOf?: (model: string) => ModelPrice | null;
}

const defaultPrice = (model: string): ModelPrice | null => {
  try {
    return resolvePrice(model).price;
  } catch {
    return null;
  }
};

/**
 * Starts a scripted upstream on 127.0.0.1 that speaks Anthropic Messages (`/v1/messages`, streamed or not,
 * `/v1/messages/count_tokens`) and OpenAI Responses (`/v1/responses`), answers what the scripted model
 * decides, and bills every call like the provider: Anthropic's breakpoint prompt cache or OpenAI's
 * automatic prefix cache, at the catalog's list prices, reported back in the reply's `usage`.
 */
export async function startBillingUpstream(options: BillingUpstreamOptions): Promise<BillingUpstream> {
  const priceOf = options.priceOf ?? defaultPrice;
  const anthropicCache = new AnthropicPromptCache();
  const openaiCache = new OpenAIPromptCache();
  const calls: UpstreamCall[] = [];
  let serial = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const base = {
      serial: ++serial,
      exchange: exchangeOf(req),
      method: req.method ?? 'GET',
      path,
      headers: recordableHeaders(req),
      body,
    };
    const record = (call: Partial<UpstreamCall>): void => {
      calls.push({
        model: null,
        view: null,
        reply: null,
        bill: null,
        billed: null,
        cachedTokens: 0,
        error: null,
        ...base,
        ...call,
      });
    };
    if (req.method !== 'POST') {
      record({});
      res.writeHead(200).end();
      return;
    }
    const json = parseJson(body);
    if (path === '/v1/messages/count_tokens') {
      const parsed = MessagesRequest.safeParse(json);
      const tokens = parsed.success ? anthropicPrompt(parsed.data).prefixTokens.at(-1)! : 0;
      record({ model: parsed.success ? parsed.data.model : null });
      sendJson(res, 200, { input_tokens: tokens });
      return;
    }
    if (path === '/v1/messages') {
      const parsed = MessagesRequest.safeParse(json);
      if (!parsed.success) return refuse(res, record, 'invalid_request_error', parsed.error.issues[0]);
      const request = parsed.data;
      const view = messagesView(request);
      const reply = await options.model(view, { exchange: base.exchange, body: json });
      const prompt = anthropicPrompt(request);
      const price = priceOf(request.model);
      const usage = anthropicCache.bill(request.model, prompt, price?.minCacheableTokens ?? 1024);
      const output = outputTokens(reply);
      const bill = priceCall(
        {
          input: usage.input,
          cacheWrite5m: usage.cacheWrite5m,
          cacheWrite1h: usage.cacheWrite1h,
          cacheRead: usage.cacheRead,
          output,
        },
        price ?? ZERO_PRICE,
      );
      record({
        model: request.model,
        view,
        reply,
        bill,
        billed: { api: 'messages', prompt },
        cachedTokens: usage.cachedTokens,
      });
      const report = {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite5m + usage.cacheWrite1h,
        cache_read_input_tokens: usage.cacheRead,
        cache_creation: {
          ephemeral_5m_input_tokens: usage.cacheWrite5m,
          ephemeral_1h_input_tokens: usage.cacheWrite1h,
        },
        output_tokens: output,
      };
      const envelope = { serial: base.serial, thought: thoughtFor(reply) };
      if (request.stream) streamMessagesReply(res, request.model, reply, envelope, report);
      else sendJson(res, 200, messagesReplyJson(request.model, reply, envelope, report));
      return;
    }
    if (path === '/v1/responses') {
      const parsed = ResponsesRequest.safeParse(json);
      if (!parsed.success) return refuse(res, record, 'invalid_request_error', parsed.error.issues[0]);
      const request = parsed.data;
      const view = responsesView(request);
      const reply = await options.model(view, { exchange: base.exchange, body: json });
      const prompt = responsesPrompt(request);
      const price = priceOf(request.model);
      const usage = openaiCache.bill(`${request.model}:${request.prompt_cache_key ?? ''}`, prompt.text);
      const output = outputTokens(reply);
      const bill = priceCall(
        {
          input: usage.input - usage.cached,
          cacheWrite5m: 0,
          cacheWrite1h: 0,
          cacheRead: usage.cached,
          output,
        },
        price ?? ZERO_PRICE,
      );
      record({
        model: request.model,
        view,
        reply,
        bill,
        billed: { api: 'responses', prompt },
        cachedTokens: usage.cachedTokens,
      });
      const report = {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input + output,
      };
      const envelope = { serial: base.serial, thought: thoughtFor(reply) };
      if (request.stream === false) {
        sendJson(res, 200, {
          id: `resp_fake${base.serial}`,
          object: 'response',
          model: request.model,
          status: 'completed',
          output: replyItems(reply, envelope),
          usage: report,
        });
      } else streamResponsesReply(res, request.model, reply, envelope, report);
      return;
    }
    record({ error: `no such route ${path}` });
    sendJson(res, 404, { error: { type: 'not_found_error', message: `the fake upstream has no ${path}` } });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: String(error) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ZERO_PRICE: ModelPrice = {
  input: 0,
  output: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  minCacheableTokens: 1024,
};

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function refuse(
  res: ServerResponse,
  record: (call: Partial<UpstreamCall>) => void,
  type: string,
  issue: { path: PropertyKey[]; message: string } | undefined,
): void {
  // A provider names the field it rejects; so does the fake, so a malformed body is easy to trace.
  const message = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'body: not JSON';
  record({ error: message });
  sendJson(res, 400, { type: 'error', error: { type, message } });
}

function thoughtFor(reply: ScriptedReply): string {
  if (reply.kind === 'final') return 'I have what I need to answer.';
  return `Next: ${reply.name}.`;
}

/** Output tokens of a reply: its thought plus the text or call the model wrote. */
function outputTokens(reply: ScriptedReply): number {
  if (reply.kind === 'final' && reply.outputTokens !== undefined) return reply.outputTokens;
  const written =
    reply.kind === 'final'
      ? reply.text
      : reply.kind === 'custom_tool'
        ? `${reply.name} ${reply.input}`
        : callsOf(reply)
            .map((call) => `${call.name} ${JSON.stringify(call.input)}`)
            .join('\n');
  return countTokens(`${thoughtFor(reply)}\n${written}`);
}
