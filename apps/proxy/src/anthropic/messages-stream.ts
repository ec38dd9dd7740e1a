import type { PreparedExchange } from '../exchange.js';
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
import { namedEvent, type SseEvent } from '../http/sse.js';
import { anthropicUsage, type BilledUsage } from '../savings/billed-usage.js';
import { isDistilCall } from './distil-round.js';
import type { AnthropicPart, MessagesRequest } from './messages-body.js';
import { usageTotal } from './messages-json.js';
import { MessagesTurn } from './messages-turn.js';
import { ContentAccumulator } from './stream-accumulator.js';

/**
 * A streaming Messages request with the expand loop. Text, thinking and the agent's own tool calls are
 * relayed the moment they arrive; only distil tool-call frames, the message_delta and message_stop are
 * held until the round's end shows whether the proxy continues. A continuation's events are spliced
 * into the same client stream: its message_start is dropped and its block indices continue the client's
 * numbering, so the client reads one well-formed message. Failures after the 200 become the provider's
 * `error` event.
 */
export function streamMessages(
  exchange: PreparedExchange,
  request: MessagesRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const splicer = (client: ClientStream) => new MessagesSplicer(client, exchange.offered);
  const channel = new StreamChannel(exchange, 'anthropic', splicer);
  return runExpandLoop(exchange, new MessagesTurn(exchange, request), channel, body, rewritten);
}

/** Relays upstream rounds into one client message, renumbering content blocks and holding distil frames. */
class MessagesSplicer implements StreamSplicer<AnthropicPart[]> {
  readonly completion = 'message_stop';
  #nextIndex = 0;
  /** The billed usage of every round so far. */
  readonly #calls: BilledUsage[] = [];
  // The round being relayed: its number, content, block indices (upstream → client's; null: held),
  // usage and model so far, and its held message_delta event (stop reason, usage), parsed and raw.
  #round = 0;
  #content = new ContentAccumulator();
  #indices = new Map<number, number | null>();
  #usage: Record<string, unknown> = {};
  #model: string | undefined;
  #delta: { data: Record<string, unknown>; raw: string } | null = null;

  /** `intercept`: whether distil calls are the proxy's to answer (it offered the tools). */
  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
  ) {}

  begin(round: number): void {
    this.#round = round;
    this.#content = new ContentAccumulator();
    this.#indices = new Map();
    this.#usage = {};
    this.#model = undefined;
    this.#delta = null;
  }

  /** Relays an event; the round's message_delta and message_stop are held for `finish`. */
  async relay(event: SseEvent): Promise<RelayStep> {
    const data = eventObject(event.data);
    if (data === null) {
      await this.client.write(event.raw);
      return 'next';
    }
    switch (data.type) {
      case 'message_start': {
        const message = (data.message ?? {}) as Record<string, unknown>;
        this.#usage = { ...((message.usage as Record<string, unknown>) ?? {}) };
        if (typeof message.model === 'string') this.#model = message.model;
        if (this.#round === 0) await this.client.write(event.raw);
        return 'next';
      }
      case 'content_block_start': {
        this.#content.apply(data);
        const index = data.index as number;
        if (this.intercept && isDistilCall((data.content_block ?? {}) as AnthropicPart)) {
          this.#indices.set(index, null);
          return 'next';
        }
        // Only a spliced or filtered stream needs renumbering; otherwise indices stay the upstream's own.
        const mapped = this.intercept ? this.#nextIndex++ : index;
        this.#indices.set(index, mapped);
        await this.client.write(
          mapped === index ? event.raw : namedEvent('content_block_start', { ...data, index: mapped }),
        );
        return 'next';
      }
      case 'content_block_delta':
      case 'content_block_stop': {
        this.#content.apply(data);
        const mapped = this.#indices.get(data.index as number);
        if (mapped === null) return 'next';
        // A block whose start never came (a malformed upstream) goes out as it came, not dropped.
        const same = mapped === undefined || mapped === data.index;
        await this.client.write(same ? event.raw : namedEvent(String(data.type), { ...data, index: mapped }));
        return 'next';
      }
      case 'message_delta':
        this.#delta = { data, raw: event.raw };
        this.#usage = { ...this.#usage, ...((data.usage as Record<string, unknown>) ?? {}) };
        return 'next';
      case 'message_stop':
        return 'complete';
      case 'error':
        return upstreamError(data.error);
      default:
        // ping and event types newer than this relay: passed through as they are.
        await this.client.write(event.raw);
        return 'next';
    }
  }

  end(failure: string | null, kind?: UpstreamErrorKind): SplicedRound<AnthropicPart[]> {
    const billed = anthropicUsage(this.#usage);
    this.#calls.push(billed);
    if (failure !== null) return brokenRound(failure, billed, this.#model, kind);
    return { kind: 'reply', reply: this.#content.content(), usage: billed, model: this.#model, final: false };
  }

  /**
   * Ends the client's message: the last round's message_delta — as it came when nothing was spliced, else
   * with the usage of every round summed and, at the loop cap, the stop reason corrected — then message_stop.
   */
  async finish(ending: TurnEnding): Promise<void> {
    if (endsAsIs(ending)) {
      // Nothing was spliced: the client gets the upstream's own message_delta, never one made up for it.
      if (this.#delta) await this.client.write(this.#delta.raw);
    } else {
      const data = this.#delta?.data ?? {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
      };
      const delta = { ...((data.delta as Record<string, unknown>) ?? {}) };
      if (ending.kind === 'capped') delta.stop_reason = 'end_turn';
      const usage = { ...((data.usage as Record<string, unknown>) ?? {}), ...usageTotal(this.#calls) };
      await this.client.write(namedEvent('message_delta', { ...data, delta, usage }));
    }
    await this.client.write(namedEvent('message_stop', { type: 'message_stop' }));
  }
}

/** An event's data as a JSON object; null when it is empty, not JSON, or not an object. */
function eventObject(data: string): Record<string, unknown> | null {
  const parsed = data.length > 0 ? eventJson(data) : undefined;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
}
