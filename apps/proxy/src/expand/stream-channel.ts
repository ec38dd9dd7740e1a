import { isEventStream, type PreparedExchange, savedTokensOf } from '../exchange.js';
import { errorLabel } from '../fail-open/part-failure.js';
import { ClientStream } from '../http/client-stream.js';
import { streamErrorEvent, type UpstreamErrorKind } from '../http/provider-errors.js';
import { distilHeaders, readUpstreamBody, relayResponse } from '../http/relay.js';
import { type SseEvent, SseParser } from '../http/sse.js';
import type { UpstreamResponse } from '../http/upstream.js';
import type { BilledUsage } from '../savings/billed-usage.js';
import type { ReplyChannel, RoundRead, TurnEnding } from './expand-loop.js';

/** The wire format of a streamed turn, which decides how an in-stream error is written. */
export type StreamFormat = 'anthropic' | 'openai-chat' | 'openai-responses';

/** A round as a splicer reads it: a reply, or the reason the stream broke. */
export type SplicedRound<Reply> = Exclude<RoundRead<Reply>, { kind: 'relayed' }>;

/** A round that broke, billed as far as the upstream said before it did. */
export function brokenRound(
  reason: string,
  usage: BilledUsage | null = null,
  model: string | undefined = undefined,
  errorKind: UpstreamErrorKind | undefined = undefined,
): SplicedRound<never> {
  return { kind: 'failed', reason, usage, model, ...(errorKind ? { errorKind } : {}) };
}

/** An event's data parsed as JSON; undefined when it is not JSON (it is then relayed as it came). */
export function eventJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * The step for an upstream error event (`error` is the event's error object): its message, and the type
 * and code it gave, so the client's error names the provider's own (`overloaded_error`…) and a client
 * retries as it would without the proxy.
 */
export function upstreamError(error: unknown): RelayStep {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const kind: UpstreamErrorKind = {
    ...(typeof e['type'] === 'string' && e['type'] !== 'error' ? { type: e['type'] } : {}),
    ...(typeof e['code'] === 'string' ? { code: e['code'] } : {}),
  };
  return { error: typeof e['message'] === 'string' ? e['message'] : 'upstream stream error', kind };
}

/** What relaying one event tells the round: go on, its stream is complete, or the upstream sent an error. */
export type RelayStep = 'next' | 'complete' | { readonly error: string; readonly kind?: UpstreamErrorKind };

/**
 * One API's stream relay: it relays an upstream stream's events to the client as they come, holding
 * back what a continuation may replace (distil calls, the events that end the reply), and writes the
 * end of the one reply the client reads.
 */
export interface StreamSplicer<Reply> {
  /** What a complete stream ends with, as the failure names it when a stream stops before it. */
  readonly completion: string;
  /** Starts relaying one upstream stream: round 0 opens the client's reply, later rounds continue it. */
  begin(round: number): void;
  /** Relays one event to the client, or holds it. */
  relay(event: SseEvent): Promise<RelayStep>;
  /** What the round delivered, once its stream completed (`failure` null) or broke (`kind`: as the upstream named it). */
  end(failure: string | null, kind?: UpstreamErrorKind): SplicedRound<Reply>;
  finish(ending: TurnEnding): Promise<void>;
}

/**
 * The expand loop's streaming side. A first upstream answer that is not a 200 event stream goes to the
 * client as it came; once the client holds a 200 and events, every failure — a continuation the
 * upstream refuses, an upstream error event, a cut connection, an error in the proxy — becomes the
 * provider's own in-stream error, never a clean end the client would take for a success.
 */
export class StreamChannel<Reply> implements ReplyChannel<Reply> {
  #client: ClientStream | null = null;
  #splicer: StreamSplicer<Reply> | null = null;

  /** `splicer` makes the API's relay once the client's stream is open. */
  constructor(
    private readonly exchange: PreparedExchange,
    private readonly format: StreamFormat,
    private readonly splicer: (client: ClientStream) => StreamSplicer<Reply>,
  ) {}

  async read(upstream: UpstreamResponse, round: number): Promise<RoundRead<Reply>> {
    const { res, clock, outcome } = this.exchange;
    const streams = upstream.status === 200 && isEventStream(upstream);
    if (this.#client === null) {
      if (!streams) {
        await relayResponse(res, upstream, distilHeaders(clock, await savedTokensOf(outcome)));
        return { kind: 'relayed' };
      }
      this.#client = new ClientStream(res);
      this.#client.open(upstream, distilHeaders(clock, await savedTokensOf(outcome)));
      this.#splicer = this.splicer(this.#client);
    }
    // A continuation the upstream refuses is a failure of the stream the client already reads.
    const read: SplicedRound<Reply> = streams
      ? await this.#relayRound(this.#splicer!, upstream, round)
      : upstreamFailure(upstream, (await readUpstreamBody(upstream, clock)).toString());
    if (read.kind === 'failed')
      await this.#client.write(streamErrorEvent(this.format, read.reason, read.errorKind));
    return read;
  }

  /** Relays one upstream stream, event by event, until it completes, fails or breaks. */
  async #relayRound(
    splicer: StreamSplicer<Reply>,
    upstream: UpstreamResponse,
    round: number,
  ): Promise<SplicedRound<Reply>> {
    const parser = new SseParser();
    let step: RelayStep = 'next';
    splicer.begin(round);
    try {
      for await (const chunk of upstream.body) {
        for (const event of parser.push(chunk as Buffer)) {
          step = await splicer.relay(event);
          if (step !== 'next') break;
        }
        if (step !== 'next') break;
      }
    } catch (error) {
      return splicer.end(`upstream stream broke: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (step === 'complete') return splicer.end(null);
    if (step === 'next') return splicer.end(`upstream stream ended before ${splicer.completion}`);
    return splicer.end(step.error, step.kind);
  }

  finish(ending: TurnEnding): Promise<void> {
    return this.#splicer!.finish(ending);
  }

  /** Reports a failure in the stream, unless the client is the one that went away. */
  async fail(error: unknown): Promise<void> {
    if (this.#client === null) throw error;
    if (this.exchange.signal.aborted) return;
    // The error's class only: its message may name internals (a local path, a store client's wording).
    await this.#client.write(
      streamErrorEvent(this.format, `proxy: upstream stream failed (${errorLabel(error)})`),
    );
  }

  close(): void {
    this.#client?.end();
  }
}

/** Error types by status, for an upstream refusal whose body names none (Anthropic's names). */
const TYPE_OF_STATUS: Readonly<Record<number, string>> = { 429: 'rate_limit_error', 529: 'overloaded_error' };

/**
 * A continuation the upstream refused, as the round that broke: the message of its error body
 * (`{"error":{"message":…}}` in every dialect, else the body's start), the error type and code it gave,
 * and its `retry-after` in the message — the client's stream is already open, so no header can carry it.
 */
function upstreamFailure(upstream: UpstreamResponse, text: string): SplicedRound<never> {
  let message = `upstream ${upstream.status}: ${text.slice(0, 500)}`;
  let kind: UpstreamErrorKind = {};
  try {
    const error = (JSON.parse(text) as { error?: { message?: unknown; type?: unknown; code?: unknown } })
      .error;
    if (typeof error?.message === 'string') message = `upstream ${upstream.status}: ${error.message}`;
    kind = {
      ...(typeof error?.type === 'string' ? { type: error.type } : {}),
      ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    };
  } catch {
    // not JSON: the text as it came
  }
  const fallback = TYPE_OF_STATUS[upstream.status];
  if (kind.type === undefined && fallback) kind = { ...kind, type: fallback };
  const retryAfter = upstream.headers['retry-after'];
  if (typeof retryAfter === 'string') message += ` (retry-after: ${retryAfter})`;
  return { kind: 'failed', reason: message, usage: null, model: undefined, errorKind: kind };
}
