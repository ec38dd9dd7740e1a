import { type PreparedExchange, postUpstream, recordExchange, savedTokensOf } from '../exchange.js';
import { distilHeaders, readUpstreamBody, sendBody } from '../http/relay.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { type BilledUsage, openaiChatUsage } from '../savings/billed-usage.js';
import { ChatCompletion, type ChatCompletionBody, type ChatMessage, type ChatRequest } from './chat-body.js';
import { answerChatCalls, CHAT_TOOLS_ADDED, isDistilToolCall, rememberChatSplice } from './chat-distil.js';
import { looksLikeChatCompletion } from './chat-shape.js';

/** The content of an assistant message as a string (Chat Completions replies carry a string or null). */
function contentText(message: ChatMessage): string {
  return typeof message.content === 'string' ? message.content : '';
}

/**
 * A non-streaming Chat Completions request with the expand loop (see the Anthropic counterpart): the
 * client gets one completion whose message joins the text of every round and carries only its own tool
 * calls, with the last round's finish reason and the usage of all rounds summed.
 */
export async function jsonChat(
  exchange: PreparedExchange,
  request: ChatRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const { res, rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  const usages: Record<string, unknown>[] = [];
  const chain: ChatMessage[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  let text = '';
  let expands = 0;
  let first: ChatCompletionBody | null = null;
  let upstream = await postUpstream(exchange, body, rewritten);
  try {
    for (let round = 0; ; round++) {
      const raw = await readUpstreamBody(upstream, clock);
      const completion = upstream.status === 200 ? parseCompletion(raw) : null;
      if (!completion) {
        if (round === 0 || upstream.status !== 200) {
          sendBody(res, upstream.status, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        throw new Error('upstream continuation returned an unreadable completion');
      }
      calls.push(openaiChatUsage(completion.usage));
      usages.push(completion.usage ?? {});
      first ??= completion;
      const choice = completion.choices[0]!;
      const message = choice.message;
      const toolCalls = message.tool_calls ?? [];
      const distil = exchange.offered ? toolCalls.filter(isDistilToolCall) : [];
      text += contentText(message);
      if (distil.length === 0) {
        if (round === 0) {
          sendBody(res, 200, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        const client = { ...message, content: text };
        rememberChatSplice(session, client, chain, message, []);
        return finish(exchange, upstream.headers, first, completion, client, usages);
      }
      const own = toolCalls.filter((call) => !isDistilToolCall(call));
      const client: ChatMessage = { ...message, content: text.length > 0 ? text : null, tool_calls: own };
      if (own.length === 0) delete client.tool_calls;
      if (own.length === 0 && round >= rt.config.expandLoopCap) {
        // At the cap the calls go unanswered and unseen: the client gets what the model said so far.
        const answeredNothing: ChatMessage = { ...message, content: contentText(message) };
        delete answeredNothing.tool_calls;
        rememberChatSplice(session, client, chain, answeredNothing, []);
        const ended = { ...completion, choices: [{ ...choice, finish_reason: 'stop' }] };
        return finish(exchange, upstream.headers, first, ended, client, usages);
      }
      const results = await answerChatCalls(toolCalls, scope, session);
      expands += results.length;
      if (own.length > 0) {
        rememberChatSplice(session, client, chain, message, results);
        return finish(exchange, upstream.headers, first, completion, client, usages);
      }
      chain.push(message, ...results);
      const continuation = { ...request, messages: [...request.messages, ...chain] };
      upstream = await postUpstream(exchange, JSON.stringify(continuation), true);
    }
  } finally {
    recordExchange(exchange, 'openai', first?.model ?? exchange.model, CHAT_TOOLS_ADDED, calls, expands);
  }
}

function parseCompletion(raw: Buffer): ChatCompletionBody | null {
  const completion = parseCheckedAs<ChatCompletionBody>(raw, looksLikeChatCompletion, ChatCompletion);
  return completion !== null && completion.choices.length > 0 ? completion : null;
}

/** Sums Chat Completions usage objects field by field (nested details included). */
export function sumChatUsage(usages: readonly Record<string, unknown>[]): Record<string, unknown> {
  const total: Record<string, unknown> = {};
  for (const usage of usages) {
    for (const [key, value] of Object.entries(usage)) {
      if (typeof value === 'number') total[key] = ((total[key] as number | undefined) ?? 0) + value;
      else if (value && typeof value === 'object' && !Array.isArray(value)) {
        const sub = (total[key] as Record<string, unknown> | undefined) ?? {};
        total[key] = sumChatUsage([sub, value as Record<string, unknown>]);
      } else if (!(key in total)) total[key] = value;
    }
  }
  return total;
}

function finish(
  exchange: PreparedExchange,
  headers: Parameters<typeof sendBody>[2],
  first: ChatCompletionBody,
  last: ChatCompletionBody,
  message: ChatMessage,
  usages: readonly Record<string, unknown>[],
): void {
  const lastChoice = last.choices[0]!;
  const completion = {
    ...first,
    choices: [{ ...lastChoice, index: 0, message, finish_reason: lastChoice.finish_reason }],
    usage: sumChatUsage(usages),
  };
  const body = Buffer.from(JSON.stringify(completion));
  sendBody(exchange.res, 200, headers, body, distilHeaders(exchange.clock, savedTokensOf(exchange.outcome)));
}
