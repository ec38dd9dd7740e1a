import type { PreparedExchange } from '../exchange.js';
import { runExpandLoop } from '../expand/expand-loop.js';
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
import { openaiResponsesUsage } from '../savings/billed-usage.js';
import type { ResponseBody, ResponseItem, ResponsesRequest } from './responses-body.js';
import { isDistilItem } from './responses-distil.js';
import { ResponsesTurn } from './responses-turn.js';
import { sumUsageFields } from './usage-sum.js';

type StreamEvent = Record<string, unknown> & { type?: string };

/** Lifecycle events a continuation must not repeat: the client already has its response object. */
const OPENING = new Set(['response.created', 'response.in_progress', 'response.queued']);
/** Events that end a response. */
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * A streaming Responses request with the expand loop. Output items are relayed as they stream, except
 * distil function calls, which are held; continuation rounds skip their opening events, their output
 * indices continue the client's numbering, and every event the client gets carries the next sequence
 * number. The final terminal event carries the first response's id, every visible item and the summed
 * usage; a response that ends other than completed is not continued.
 */
export function streamResponses(
  exchange: PreparedExchange,
  request: ResponsesRequest,
  body: Buffer | string,
  rewritten: boolean,
  link: (responseId: string) => void,
): Promise<void> {
  const turn = new ResponsesTurn(exchange, request, link);
  const splicer = (client: ClientStream) => new ResponsesSplicer(client, exchange.offered, turn);
  const channel = new StreamChannel(exchange, 'openai-responses', splicer);
  return runExpandLoop(exchange, turn, channel, body, rewritten);
}

/** Relays Responses event streams into one client stream (see streamResponses). */
class ResponsesSplicer implements StreamSplicer<ResponseBody> {
  readonly completion = 'the response completed';
  #sequence = 0;
  #nextIndex = 0;
  /** The id the first round's opening events gave the client. */
  #firstId: unknown;
  /** The usage every round was billed, as the upstream wrote it. */
  readonly #usages: Record<string, unknown>[] = [];
  // The round being relayed: its number, its output indices (upstream → client's; null: held), and its
  // terminal event once it came.
  #round = 0;
  #indices = new Map<number, number | null>();
  #ending: { type: string; response: ResponseBody } | null = null;

  /** `intercept`: whether distil calls are the proxy's to answer; `turn` holds what the client sees. */
  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
    private readonly turn: ResponsesTurn,
  ) {}

  async #emit(event: StreamEvent): Promise<void> {
    await this.client.write(namedEvent(String(event.type), { ...event, sequence_number: this.#sequence++ }));
  }

  begin(round: number): void {
    this.#round = round;
    this.#indices = new Map();
    this.#ending = null;
  }

  /** Relays an event renumbered; opening events of a continuation and distil call items are held. */
  async relay(raw: SseEvent): Promise<RelayStep> {
    if (raw.data.length === 0) return 'next';
    const event = eventJson(raw.data) as StreamEvent | undefined;
    if (event === undefined) {
      await this.client.write(raw.raw);
      return 'next';
    }
    const type = event.type ?? raw.event ?? '';
    if (type === 'error') {
      // `event: error` carries code and message at its top; some servers nest them in `error`
      return upstreamError(typeof event.error === 'object' && event.error !== null ? event.error : event);
    }
    if (TERMINAL.has(type)) {
      const response = event.response as ResponseBody | undefined;
      if (!response) return { error: 'upstream stream ended early' };
      this.#ending = { type, response };
      return 'complete';
    }
    if (OPENING.has(type)) {
      if (this.#round === 0) {
        this.#firstId ??= (event.response as { id?: unknown } | undefined)?.id;
        await this.#emit(event);
      }
      return 'next';
    }
    if (typeof event.output_index !== 'number') {
      await this.#emit(event);
      return 'next';
    }
    const index = event.output_index;
    if (type === 'response.output_item.added') {
      const item = (event.item ?? {}) as ResponseItem;
      this.#indices.set(index, this.intercept && isDistilItem(item) ? null : this.#nextIndex++);
    }
    const mapped = this.#indices.get(index);
    if (mapped !== null && mapped !== undefined) await this.#emit({ ...event, output_index: mapped });
    return 'next';
  }

  /** The round's reply from its terminal event; a response that did not complete is not continued. */
  end(failure: string | null, kind?: UpstreamErrorKind): SplicedRound<ResponseBody> {
    if (failure !== null) return brokenRound(failure, null, undefined, kind);
    const { type, response } = this.#ending!;
    this.#usages.push(response.usage ?? {});
    const usage = openaiResponsesUsage(response.usage);
    return {
      kind: 'reply',
      reply: response,
      usage,
      model: response.model,
      final: type !== 'response.completed',
    };
  }

  /**
   * Ends the client's stream with the last round's terminal event, holding the first response's id,
   * every visible item and the summed usage.
   */
  async finish(): Promise<void> {
    const { type, response } = this.#ending!;
    const id = typeof this.#firstId === 'string' ? this.#firstId : this.turn.firstId;
    const usage = sumUsageFields(this.#usages);
    await this.#emit({ type, response: { ...response, id, output: this.turn.visible, usage } });
  }
}
