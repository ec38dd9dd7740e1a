import {
  isEventStream,
  type PreparedExchange,
  postUpstream,
  recordExchange,
  savedTokensOf,
} from '../exchange.js';
import { isDistilTool } from '../expand/distil-tools.js';
import { ClientStream } from '../http/client-stream.js';
import { streamErrorEvent } from '../http/provider-errors.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { dataEvent, SseParser } from '../http/sse.js';
import type { UpstreamResponse } from '../http/upstream.js';
import { type BilledUsage, openaiChatUsage } from '../savings/billed-usage.js';
import { continueStream, reportStreamFailure } from '../stream-rounds.js';
import type { ChatMessage, ChatRequest, ChatToolCall } from './chat-body.js';
import { answerChatCalls, CHAT_TOOLS_ADDED, isDistilToolCall, rememberChatSplice } from './chat-distil.js';
import { sumChatUsage } from './chat-json.js';

type Chunk = Record<string, unknown> & {
  choices?: Record<string, unknown>[];
  usage?: Record<string, unknown> | null;
};

/** What one upstream stream delivered. */
interface ChatRound {
  readonly message: ChatMessage & { tool_calls: ChatToolCall[] };
  /** The held chunk that carried finish_reason (its delta emptied). */
  readonly finish: Chunk | null;
  /** The held usage chunk (`stream_options.include_usage`). */
  readonly usage: Chunk | null;
  /** The usage the round was billed, wherever the upstream put it. */
  readonly billed: Record<string, unknown> | null;
  readonly failure: string | null;
}

/**
 * A streaming Chat Completions request with the expand loop. Content deltas and the agent's own tool-call
 * deltas are relayed as they arrive (tool-call indices renumbered without the distil calls); distil
 * tool-call deltas, the finish chunk, the usage chunk and `[DONE]` are held until the round ends. A
 * continuation's chunks carry the first completion's id, so the client accumulates one message.
 */
export async function streamChat(
  exchange: PreparedExchange,
  request: ChatRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const { rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  let expands = 0;
  const upstream = await postUpstream(exchange, body, rewritten);
  if (upstream.status !== 200 || !isEventStream(upstream)) {
    await relayResponse(exchange.res, upstream, distilHeaders(clock, savedTokensOf(outcome)));
    return;
  }
  const client = new ClientStream(exchange.res);
  client.open(upstream, distilHeaders(clock, savedTokensOf(outcome)));
  const splicer = new ChatSplicer(client, exchange.offered);
  const chain: ChatMessage[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  const usages: Record<string, unknown>[] = [];
  let text = '';
  try {
    let current: UpstreamResponse = upstream;
    for (let round = 0; ; round++) {
      const result = await splicer.relayRound(current, round);
      if (result.billed) {
        usages.push(result.billed);
        calls.push(openaiChatUsage(result.billed));
      }
      if (result.failure !== null) {
        await client.write(streamErrorEvent('openai-chat', result.failure));
        return;
      }
      const message = result.message;
      text += typeof message.content === 'string' ? message.content : '';
      const distil = exchange.offered ? message.tool_calls.filter(isDistilToolCall) : [];
      const own = message.tool_calls.filter((call) => !isDistilToolCall(call));
      const clientMessage: ChatMessage = { role: 'assistant', content: text.length > 0 ? text : null };
      if (own.length > 0) clientMessage.tool_calls = own;
      if (distil.length === 0) {
        rememberChatSplice(session, clientMessage, chain, upstreamMessage(message), []);
        await splicer.finish(result, usages, null, round === 0);
        return;
      }
      if (own.length === 0 && round >= rt.config.expandLoopCap) {
        // At the cap the calls go unanswered and unseen: the client gets what the model said so far.
        rememberChatSplice(
          session,
          clientMessage,
          chain,
          { role: 'assistant', content: message.content ?? '' },
          [],
        );
        await splicer.finish(result, usages, 'stop', false);
        return;
      }
      const results = await answerChatCalls(message.tool_calls, scope, session);
      expands += results.length;
      if (own.length > 0) {
        rememberChatSplice(session, clientMessage, chain, upstreamMessage(message), results);
        await splicer.finish(result, usages, null, false);
        return;
      }
      chain.push(upstreamMessage(message), ...results);
      const continuation = { ...request, messages: [...request.messages, ...chain] };
      const next = await continueStream(exchange, client, 'openai-chat', continuation);
      if (next === null) return;
      current = next;
    }
  } catch (error) {
    await reportStreamFailure(exchange, client, 'openai-chat', error);
  } finally {
    client.end();
    recordExchange(exchange, 'openai', splicer.model ?? exchange.model, CHAT_TOOLS_ADDED, calls, expands);
  }
}

/** The assistant message as the upstream produced it, for the continuation's history. */
function upstreamMessage(message: ChatRound['message']): ChatMessage {
  const out: ChatMessage = { role: 'assistant', content: message.content ?? null };
  if (message.tool_calls.length > 0) out.tool_calls = message.tool_calls;
  return out;
}

/** Relays Chat Completions chunk streams into one client stream (see streamChat). */
class ChatSplicer {
  model: string | undefined;
  #identity: { id?: unknown; created?: unknown; model?: unknown } | null = null;

  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
  ) {}

  async relayRound(upstream: UpstreamResponse, round: number): Promise<ChatRound> {
    const parser = new SseParser();
    const message: ChatRound['message'] = { role: 'assistant', content: null, tool_calls: [] };
    const indices = new Map<number, number | null>();
    let nextOwn = 0;
    let finish: Chunk | null = null;
    let usage: Chunk | null = null;
    let billed: Record<string, unknown> | null = null;
    let done = false;
    const fail = (failure: string): ChatRound => ({ message, finish, usage, billed, failure });
    try {
      for await (const buffer of upstream.body) {
        for (const event of parser.push(buffer as Buffer)) {
          if (event.data === '[DONE]') {
            done = true;
            break;
          }
          if (event.data.length === 0) continue;
          let chunk: Chunk;
          try {
            chunk = JSON.parse(event.data) as Chunk;
          } catch {
            await this.client.write(event.raw);
            continue;
          }
          if (chunk.error) {
            const error = chunk.error as { message?: unknown };
            return fail(typeof error.message === 'string' ? error.message : 'upstream stream error');
          }
          if (round === 0 && this.#identity === null) {
            this.#identity = { id: chunk.id, created: chunk.created, model: chunk.model };
            if (typeof chunk.model === 'string') this.model = chunk.model;
          }
          const choices = chunk.choices ?? [];
          if (chunk.usage) billed = chunk.usage;
          if (choices.length === 0) {
            if (chunk.usage) usage = chunk;
            else await this.client.write(event.raw);
            continue;
          }
          if (!this.intercept || choices.length !== 1) {
            await this.client.write(event.raw);
            continue;
          }
          const choice = choices[0]!;
          const delta = { ...((choice.delta as Record<string, unknown>) ?? {}) };
          let changed = round > 0;
          if (typeof delta.content === 'string') message.content = (message.content ?? '') + delta.content;
          if (Array.isArray(delta.tool_calls)) {
            const kept: Record<string, unknown>[] = [];
            for (const entry of delta.tool_calls as Record<string, unknown>[]) {
              const index = entry.index as number;
              const fn = (entry.function ?? {}) as { name?: string; arguments?: string };
              let call = message.tool_calls[index];
              if (!call) {
                call = {
                  id: String(entry.id ?? ''),
                  type: 'function',
                  function: { name: fn.name ?? '', arguments: '' },
                };
                message.tool_calls[index] = call;
                indices.set(index, isDistilTool(fn.name) ? null : nextOwn++);
              }
              if (typeof fn.arguments === 'string') call.function.arguments += fn.arguments;
              const mapped = indices.get(index);
              if (mapped === null || mapped === undefined) {
                changed = true;
                continue;
              }
              if (mapped !== index) changed = true;
              kept.push({ ...entry, index: mapped });
            }
            if (kept.length > 0) delta.tool_calls = kept;
            else delete delta.tool_calls;
          }
          if (round > 0) delete delta.role;
          const identity = round > 0 ? this.#identity : null;
          if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
            finish = { ...chunk, ...identity, choices: [{ ...choice, delta: {} }] };
            if (Object.keys(delta).length === 0) continue;
            await this.client.write(
              dataEvent({ ...chunk, ...identity, choices: [{ ...choice, delta, finish_reason: null }] }),
            );
            continue;
          }
          if (Object.keys(delta).length === 0 && changed) continue;
          await this.client.write(
            changed ? dataEvent({ ...chunk, ...identity, choices: [{ ...choice, delta }] }) : event.raw,
          );
        }
        if (done) break;
      }
    } catch (error) {
      return fail(`upstream stream broke: ${error instanceof Error ? error.message : String(error)}`);
    }
    message.tool_calls = message.tool_calls.filter((call) => call !== undefined);
    return { message, finish, usage, billed, failure: done ? null : 'upstream stream ended before [DONE]' };
  }

  /** Ends the client's stream: the finish chunk, the usage chunk (summed), then `[DONE]`. */
  async finish(
    last: ChatRound,
    usages: readonly Record<string, unknown>[],
    reason: string | null,
    asIs: boolean,
  ): Promise<void> {
    if (last.finish) {
      const choice = last.finish.choices![0]!;
      await this.client.write(
        dataEvent({ ...last.finish, choices: [{ ...choice, ...(reason ? { finish_reason: reason } : {}) }] }),
      );
    }
    if (last.usage) {
      await this.client.write(
        dataEvent(asIs ? last.usage : { ...last.usage, ...this.#identity, usage: sumChatUsage(usages) }),
      );
    }
    await this.client.write(dataEvent('[DONE]'));
  }
}
