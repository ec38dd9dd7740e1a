import {
  isEventStream,
  type PreparedExchange,
  postUpstream,
  recordExchange,
  savedTokensOf,
} from '../exchange.js';
import { ClientStream } from '../http/client-stream.js';
import { streamErrorEvent } from '../http/provider-errors.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { namedEvent, SseParser } from '../http/sse.js';
import type { UpstreamResponse } from '../http/upstream.js';
import { type BilledUsage, openaiResponsesUsage } from '../savings/billed-usage.js';
import { continueStream, reportStreamFailure } from '../stream-rounds.js';
import { sumChatUsage } from './chat-json.js';
import type { ResponseBody, ResponseItem, ResponsesRequest } from './responses-body.js';
import {
  answerResponseCalls,
  continuationRequest,
  isAgentItem,
  isDistilItem,
  RESPONSES_TOOLS_ADDED,
  rememberResponseSplice,
} from './responses-distil.js';

type StreamEvent = Record<string, unknown> & { type?: string };

/** What one upstream stream delivered. */
interface ResponsesRound {
  /** The terminal event's response (response.completed, or .incomplete / .failed). */
  readonly response: ResponseBody | null;
  readonly terminal: string | null;
  readonly failure: string | null;
}

/** Lifecycle events a continuation must not repeat: the client already has its response object. */
const OPENING = new Set(['response.created', 'response.in_progress', 'response.queued']);
/** Events that end a response. */
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * A streaming Responses request with the expand loop. Output items are relayed as they stream, except
 * distil function calls, which are held; continuation rounds skip their opening events, their output
 * indices continue the client's numbering, and every event the client gets carries the next sequence
 * number. The final `response.completed` carries the first response's id, every visible item and the
 * summed usage.
 */
export async function streamResponses(
  exchange: PreparedExchange,
  request: ResponsesRequest,
  body: Buffer | string,
  rewritten: boolean,
  link: (responseId: string) => void,
): Promise<void> {
  const { rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  const usages: Record<string, unknown>[] = [];
  let expands = 0;
  let model = exchange.model;
  const upstream = await postUpstream(exchange, body, rewritten);
  if (upstream.status !== 200 || !isEventStream(upstream)) {
    await relayResponse(exchange.res, upstream, distilHeaders(clock, savedTokensOf(outcome)));
    return;
  }
  const client = new ClientStream(exchange.res);
  client.open(upstream, distilHeaders(clock, savedTokensOf(outcome)));
  const splicer = new ResponsesSplicer(client, exchange.offered);
  const visible: ResponseItem[] = [];
  const history: ResponseItem[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  let firstId: string | null = null;
  try {
    let current: UpstreamResponse = upstream;
    for (let round = 0; ; round++) {
      const result = await splicer.relayRound(current, round === 0);
      if (result.failure !== null || !result.response) {
        await client.write(
          streamErrorEvent('openai-responses', result.failure ?? 'upstream stream ended early'),
        );
        return;
      }
      const reply = result.response;
      model = reply.model ?? model;
      firstId ??= reply.id;
      link(reply.id);
      calls.push(openaiResponsesUsage(reply.usage));
      usages.push(reply.usage ?? {});
      const output = reply.output ?? [];
      const distil = exchange.offered ? output.filter(isDistilItem) : [];
      visible.push(...output.filter((item) => !distil.includes(item)));
      history.push(...output);
      if (distil.length === 0 || result.terminal !== 'response.completed') {
        rememberResponseSplice(session, request, firstId, reply.id, visible, history, []);
        await splicer.finish(
          result.terminal ?? 'response.completed',
          { ...reply, id: firstId },
          visible,
          usages,
        );
        return;
      }
      const outputs = await answerResponseCalls(output, scope, session);
      expands += outputs.length;
      if (output.some(isAgentItem) || round >= rt.config.expandLoopCap) {
        rememberResponseSplice(session, request, firstId, reply.id, visible, history, outputs);
        await splicer.finish('response.completed', { ...reply, id: firstId }, visible, usages);
        return;
      }
      history.push(...outputs);
      const next = continuationRequest(request, history, reply.id, outputs);
      const following = await continueStream(exchange, client, 'openai-responses', next);
      if (following === null) return;
      current = following;
    }
  } catch (error) {
    await reportStreamFailure(exchange, client, 'openai-responses', error);
  } finally {
    client.end();
    recordExchange(exchange, 'openai', model, RESPONSES_TOOLS_ADDED, calls, expands);
  }
}

/** Relays Responses event streams into one client stream (see streamResponses). */
class ResponsesSplicer {
  #sequence = 0;
  #nextIndex = 0;
  #firstId: unknown;

  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
  ) {}

  async #emit(event: StreamEvent): Promise<void> {
    await this.client.write(namedEvent(String(event.type), { ...event, sequence_number: this.#sequence++ }));
  }

  async relayRound(upstream: UpstreamResponse, first: boolean): Promise<ResponsesRound> {
    const parser = new SseParser();
    const indices = new Map<number, number | null>();
    try {
      for await (const chunk of upstream.body) {
        for (const raw of parser.push(chunk as Buffer)) {
          if (raw.data.length === 0) continue;
          let event: StreamEvent;
          try {
            event = JSON.parse(raw.data) as StreamEvent;
          } catch {
            await this.client.write(raw.raw);
            continue;
          }
          const type = event.type ?? raw.event ?? '';
          if (type === 'error') {
            const message = (event.message ??
              (event.error as { message?: unknown } | undefined)?.message) as unknown;
            return {
              response: null,
              terminal: null,
              failure: typeof message === 'string' ? message : 'upstream stream error',
            };
          }
          if (TERMINAL.has(type))
            return { response: event.response as ResponseBody, terminal: type, failure: null };
          if (OPENING.has(type)) {
            if (first) {
              this.#firstId ??= (event.response as { id?: unknown } | undefined)?.id;
              await this.#emit(event);
            }
            continue;
          }
          if (typeof event.output_index !== 'number') {
            await this.#emit(event);
            continue;
          }
          const index = event.output_index;
          if (type === 'response.output_item.added') {
            const item = (event.item ?? {}) as ResponseItem;
            indices.set(index, this.intercept && isDistilItem(item) ? null : this.#nextIndex++);
          }
          const mapped = indices.get(index);
          if (mapped === null || mapped === undefined) continue;
          await this.#emit({ ...event, output_index: mapped });
        }
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { response: null, terminal: null, failure: `upstream stream broke: ${reason}` };
    }
    return { response: null, terminal: null, failure: 'upstream stream ended before the response completed' };
  }

  /** Ends the client's stream with the terminal event, holding every visible item and the summed usage. */
  async finish(
    terminal: string,
    response: ResponseBody,
    output: readonly ResponseItem[],
    usages: readonly Record<string, unknown>[],
  ): Promise<void> {
    const id = typeof this.#firstId === 'string' ? this.#firstId : response.id;
    await this.#emit({ type: terminal, response: { ...response, id, output, usage: sumChatUsage(usages) } });
  }
}
