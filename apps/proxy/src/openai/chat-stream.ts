import type { PreparedExchange } from '../exchange.js';
import { isDistilTool } from '../expand/distil-tools.js';
import { endsAsIs, runExpandLoop, type TurnEnding } from '../expand/expand-loop.js';
import {
  brokenRound,
  eventJson,
  type RelayStep,
  type SplicedRound,
  StreamChannel,
  type StreamSplicer,
  upstreamError,
} from '../expand/stream-channel.js';
import type { ClientStream } from '../http/client-stream.js';
import type { UpstreamErrorKind } from '../http/provider-errors.js';
import { dataEvent, type SseEvent } from '../http/sse.js';
import { openaiChatUsage } from '../savings/billed-usage.js';
import type { ChatMessage, ChatRequest, ChatToolCall } from './chat-body.js';
import { ChatTurn } from './chat-turn.js';
import { sumUsageFields } from './usage-sum.js';

type Chunk = Record<string, unknown> & {
  choices?: Record<string, unknown>[];
  usage?: Record<string, unknown> | null;
};

/**
 * A streaming Chat Completions request with the expand loop. Content deltas and the agent's own tool-call
 * deltas are relayed as they arrive (tool-call indices renumbered without the distil calls); distil
 * tool-call deltas, the finish chunk, the usage chunk and `[DONE]` are held until the round ends. A
 * continuation's chunks carry the first completion's id, so the client accumulates one message.
 */
export function streamChat(
  exchange: PreparedExchange,
  request: ChatRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const splicer = (client: ClientStream) => new ChatSplicer(client, exchange.offered);
  const channel = new StreamChannel(exchange, 'openai-chat', splicer);
  return runExpandLoop(exchange, new ChatTurn(exchange, request), channel, body, rewritten);
}

/** The assistant message as the upstream produced it, for the continuation's history. */
function upstreamMessage(message: ChatMessage & { tool_calls: ChatToolCall[] }): ChatMessage {
  const out: ChatMessage = { role: 'assistant', content: message.content ?? null };
  if (message.tool_calls.length > 0) out.tool_calls = message.tool_calls;
  return out;
}

/** What one upstream stream has delivered so far. */
interface ChatRoundState {
  readonly round: number;
  readonly message: ChatMessage & { tool_calls: ChatToolCall[] };
  /** Upstream tool-call index → the client's (null: a distil call, held). */
  readonly indices: Map<number, number | null>;
  nextOwn: number;
  billed: Record<string, unknown> | null;
}

/** Relays Chat Completions chunk streams into one client stream (see streamChat). */
class ChatSplicer implements StreamSplicer<ChatMessage> {
  readonly completion = '[DONE]';
  #identity: { id?: unknown; created?: unknown; model?: unknown } | null = null;
  /** The usage every round was billed, as the upstream wrote it. */
  readonly #usages: Record<string, unknown>[] = [];
  #state: ChatRoundState = ChatSplicer.#fresh(0);
  /** The round's held chunk that carried finish_reason (its delta emptied). */
  #finish: Chunk | null = null;
  /**
   * The round's held usage chunk (`stream_options.include_usage`), and its event as the upstream wrote
   * it: relayed as it came when nothing is summed into it, so its bytes are the upstream's.
   */
  #usage: { readonly chunk: Chunk; readonly raw: string } | null = null;

  /** `intercept`: whether distil calls are the proxy's to answer (it offered the tools). */
  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
  ) {}

  static #fresh(round: number): ChatRoundState {
    const message = { role: 'assistant' as const, content: null, tool_calls: [] };
    return { round, message, indices: new Map(), nextOwn: 0, billed: null };
  }

  begin(round: number): void {
    this.#state = ChatSplicer.#fresh(round);
    this.#finish = null;
    this.#usage = null;
  }

  end(failure: string | null, kind?: UpstreamErrorKind): SplicedRound<ChatMessage> {
    const state = this.#state;
    if (state.billed) this.#usages.push(state.billed);
    const usage = state.billed ? openaiChatUsage(state.billed) : null;
    const model = typeof this.#identity?.model === 'string' ? this.#identity.model : undefined;
    if (failure !== null) return brokenRound(failure, usage, model, kind);
    const message = state.message;
    message.tool_calls = message.tool_calls.filter((call) => call !== undefined);
    return { kind: 'reply', reply: upstreamMessage(message), usage, model, final: false };
  }

  /** Relays one chunk, or holds it (distil call deltas, the finish and usage chunks, `[DONE]`). */
  async relay(event: SseEvent): Promise<RelayStep> {
    if (event.data === '[DONE]') return 'complete';
    if (event.data.length === 0) return 'next';
    const chunk = eventJson(event.data) as Chunk | undefined;
    if (chunk === undefined) {
      await this.client.write(event.raw);
      return 'next';
    }
    if (chunk.error) return upstreamError(chunk.error);
    const state = this.#state;
    const { round } = state;
    if (round === 0 && this.#identity === null) {
      this.#identity = { id: chunk.id, created: chunk.created, model: chunk.model };
    }
    const choices = chunk.choices ?? [];
    if (chunk.usage) state.billed = chunk.usage;
    if (choices.length === 0) {
      if (chunk.usage) this.#usage = { chunk, raw: event.raw };
      else await this.#passThrough(event.raw);
      return 'next';
    }
    if (!this.intercept || choices.length !== 1) {
      await this.#passThrough(event.raw);
      return 'next';
    }
    const choice = choices[0]!;
    const delta = { ...((choice.delta as Record<string, unknown>) ?? {}) };
    const { message } = state;
    if (typeof delta.content === 'string') message.content = (message.content ?? '') + delta.content;
    const renumbered = Array.isArray(delta.tool_calls) && this.#renumberCalls(delta, state);
    const changed = round > 0 || renumbered;
    if (round > 0) delete delta.role;
    const identity = round > 0 ? this.#identity : null;
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
      this.#finish = { ...chunk, ...identity, choices: [{ ...choice, delta: {} }] };
      if (Object.keys(delta).length === 0) return 'next';
      await this.client.write(
        dataEvent({ ...chunk, ...identity, choices: [{ ...choice, delta, finish_reason: null }] }),
      );
      return 'next';
    }
    if (Object.keys(delta).length === 0 && changed) return 'next';
    await this.client.write(
      changed ? dataEvent({ ...chunk, ...identity, choices: [{ ...choice, delta }] }) : event.raw,
    );
    return 'next';
  }

  /**
   * Writes an event the splicer does not hold. The finish and usage chunks are held only so a
   * continuation can follow them; when more events come after them (a stream newer or stranger than
   * OpenAI's, where usage is the last chunk before `[DONE]`) and the round holds no distil call, no
   * continuation can follow, so they go out first and the client reads the chunks in the upstream's order.
   */
  async #passThrough(raw: string): Promise<void> {
    const state = this.#state;
    const holdsDistilCall = [...state.indices.values()].includes(null);
    if (state.round === 0 && !holdsDistilCall) {
      if (this.#finish) await this.client.write(dataEvent(this.#finish));
      if (this.#usage) await this.client.write(this.#usage.raw);
      this.#finish = null;
      this.#usage = null;
    }
    await this.client.write(raw);
  }

  /**
   * Accumulates a delta's tool-call pieces and keeps, renumbered, only the agent's own; whether the
   * delta changed (a distil call held, an index moved).
   */
  #renumberCalls(delta: Record<string, unknown>, state: ChatRoundState): boolean {
    const { message, indices } = state;
    let changed = false;
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
        indices.set(index, isDistilTool(fn.name) ? null : state.nextOwn++);
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
    return changed;
  }

  /**
   * Ends the client's stream: the finish chunk (`stop` at the loop cap), the usage chunk — as it came
   * when nothing was spliced, else with every round's usage summed — then `[DONE]`.
   */
  async finish(ending: TurnEnding): Promise<void> {
    if (this.#finish) {
      const choice = this.#finish.choices![0]!;
      const reason = ending.kind === 'capped' ? { finish_reason: 'stop' } : {};
      await this.client.write(dataEvent({ ...this.#finish, choices: [{ ...choice, ...reason }] }));
    }
    if (this.#usage) {
      const summed = { ...this.#usage.chunk, ...this.#identity, usage: sumUsageFields(this.#usages) };
      await this.client.write(endsAsIs(ending) ? this.#usage.raw : dataEvent(summed));
    }
    await this.client.write(dataEvent('[DONE]'));
  }
}
