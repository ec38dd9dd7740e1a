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
import { anthropicUsage, type BilledUsage } from '../savings/billed-usage.js';
import { continueStream, reportStreamFailure } from '../stream-rounds.js';
import {
  ANTHROPIC_TOOLS_ADDED,
  answerDistilCalls,
  isAgentCall,
  isDistilCall,
  rememberSplice,
  visibleContent,
} from './distil-round.js';
import type { AnthropicMessage, AnthropicPart, MessagesRequest } from './messages-body.js';
import { ContentAccumulator } from './stream-accumulator.js';

/** What one upstream stream (one round of the loop) delivered. */
interface Round {
  readonly content: AnthropicPart[];
  /** The held message_delta event (stop reason, usage), parsed, and its raw text. */
  readonly delta: { data: Record<string, unknown>; raw: string } | null;
  readonly usage: BilledUsage;
  /** Why the round ended early, when it did (an upstream error event, a cut connection). */
  readonly failure: string | null;
}

/**
 * A streaming Messages request with the expand loop. Text, thinking and the agent's own tool calls are
 * relayed the moment they arrive; only distil tool-call frames, the message_delta and message_stop are
 * held until the round's end shows whether the proxy continues. A continuation's events are spliced
 * into the same client stream: its message_start is dropped and its block indices continue the client's
 * numbering, so the client reads one well-formed message. Failures after the 200 become the provider's
 * `error` event.
 */
export async function streamMessages(
  exchange: PreparedExchange,
  request: MessagesRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const { rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  let expands = 0;
  let model = exchange.model;
  const upstream = await postUpstream(exchange, body, rewritten);
  if (upstream.status !== 200 || !isEventStream(upstream)) {
    await relayResponse(exchange.res, upstream, distilHeaders(clock, savedTokensOf(outcome)));
    return;
  }
  const client = new ClientStream(exchange.res);
  client.open(upstream, distilHeaders(clock, savedTokensOf(outcome)));
  const splicer = new StreamSplicer(client, exchange.offered);
  const chain: AnthropicMessage[] = [];
  const clientContent: AnthropicPart[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  try {
    let current: UpstreamResponse = upstream;
    for (let round = 0; ; round++) {
      const result = await splicer.relayRound(current, round === 0);
      model = splicer.model ?? model;
      calls.push(result.usage);
      if (result.failure !== null) {
        await client.write(streamErrorEvent('anthropic', result.failure));
        return;
      }
      const distil = exchange.offered ? result.content.filter(isDistilCall) : [];
      const visible = exchange.offered ? visibleContent(result.content) : result.content;
      clientContent.push(...visible);
      if (distil.length === 0) {
        rememberSplice(session, clientContent, chain, result.content, []);
        await splicer.finish(result, calls, null, round === 0);
        return;
      }
      const mixed = result.content.some(isAgentCall);
      if (!mixed && round >= rt.config.expandLoopCap) {
        // At the cap the calls go unanswered and unseen: the client gets what the model said so far.
        rememberSplice(session, clientContent, chain, visible, []);
        await splicer.finish(result, calls, 'end_turn', false);
        return;
      }
      const answered = await answerDistilCalls(result.content, scope, session);
      expands += answered.expands;
      if (mixed) {
        rememberSplice(session, clientContent, chain, result.content, answered.results);
        await splicer.finish(result, calls, null, false);
        return;
      }
      chain.push({ role: 'assistant', content: result.content }, { role: 'user', content: answered.results });
      const continuation = { ...request, messages: [...request.messages, ...chain] };
      const next = await continueStream(exchange, client, 'anthropic', continuation);
      if (next === null) return;
      current = next;
    }
  } catch (error) {
    await reportStreamFailure(exchange, client, 'anthropic', error);
  } finally {
    client.end();
    recordExchange(exchange, 'anthropic', model, ANTHROPIC_TOOLS_ADDED, calls, expands);
  }
}

/** Relays upstream rounds into one client message, renumbering content blocks and holding distil frames. */
class StreamSplicer {
  #nextIndex = 0;
  model: string | undefined;

  /** `intercept`: whether distil calls are the proxy's to answer (it offered the tools). */
  constructor(
    private readonly client: ClientStream,
    private readonly intercept: boolean,
  ) {}

  /** Relays one upstream stream up to (not including) its message_delta and message_stop. */
  async relayRound(upstream: UpstreamResponse, first: boolean): Promise<Round> {
    const parser = new SseParser();
    const accumulator = new ContentAccumulator();
    const indices = new Map<number, number | null>();
    let usage: Record<string, unknown> = {};
    let delta: Round['delta'] = null;
    let stopped = false;
    const handle = async (raw: string, data: Record<string, unknown>): Promise<string | null> => {
      switch (data.type) {
        case 'message_start': {
          const message = (data.message ?? {}) as Record<string, unknown>;
          usage = { ...((message.usage as Record<string, unknown>) ?? {}) };
          if (typeof message.model === 'string') this.model = message.model;
          if (first) await this.client.write(raw);
          return null;
        }
        case 'content_block_start': {
          accumulator.apply(data);
          const index = data.index as number;
          if (this.intercept && isDistilCall((data.content_block ?? {}) as AnthropicPart)) {
            indices.set(index, null);
            return null;
          }
          // Only a spliced or filtered stream needs renumbering; otherwise indices stay the upstream's own.
          const mapped = this.intercept ? this.#nextIndex++ : index;
          indices.set(index, mapped);
          await this.client.write(
            mapped === index ? raw : namedEvent('content_block_start', { ...data, index: mapped }),
          );
          return null;
        }
        case 'content_block_delta':
        case 'content_block_stop': {
          accumulator.apply(data);
          const mapped = indices.get(data.index as number);
          if (mapped === null) return null;
          if (mapped === undefined) {
            // A block whose start never came (a malformed upstream) goes out as it came, not dropped.
            await this.client.write(raw);
            return null;
          }
          await this.client.write(
            mapped === data.index ? raw : namedEvent(String(data.type), { ...data, index: mapped }),
          );
          return null;
        }
        case 'message_delta':
          delta = { data, raw };
          usage = { ...usage, ...((data.usage as Record<string, unknown>) ?? {}) };
          return null;
        case 'message_stop':
          stopped = true;
          return null;
        case 'error': {
          const error = (data.error ?? {}) as { message?: unknown };
          return typeof error.message === 'string' ? error.message : 'upstream stream error';
        }
        default:
          // ping and event types newer than this relay: passed through as they are.
          await this.client.write(raw);
          return null;
      }
    };
    try {
      for await (const chunk of upstream.body) {
        for (const event of parser.push(chunk as Buffer)) {
          const failure = await this.#dispatch(event.raw, event.data, handle);
          if (failure !== null)
            return { content: accumulator.content(), delta, usage: anthropicUsage(usage), failure };
          if (stopped) break;
        }
        if (stopped) break;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        content: accumulator.content(),
        delta,
        usage: anthropicUsage(usage),
        failure: `upstream stream broke: ${reason}`,
      };
    }
    const failure = stopped ? null : 'upstream stream ended before message_stop';
    return { content: accumulator.content(), delta, usage: anthropicUsage(usage), failure };
  }

  async #dispatch(
    raw: string,
    data: string,
    handle: (raw: string, data: Record<string, unknown>) => Promise<string | null>,
  ): Promise<string | null> {
    if (data.length === 0) {
      await this.client.write(raw);
      return null;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      await this.client.write(raw);
      return null;
    }
    if (typeof parsed !== 'object' || parsed === null) {
      await this.client.write(raw);
      return null;
    }
    return handle(raw, parsed as Record<string, unknown>);
  }

  /**
   * Ends the client's message: the last round's message_delta — as it came when nothing was spliced, else
   * with the usage of every round summed and, at the loop cap, the stop reason corrected — then message_stop.
   */
  async finish(
    last: Round,
    calls: readonly BilledUsage[],
    stopReason: string | null,
    asIs: boolean,
  ): Promise<void> {
    if (asIs) {
      // Nothing was spliced: the client gets the upstream's own message_delta, never one made up for it.
      if (last.delta) await this.client.write(last.delta.raw);
    } else {
      const data = last.delta?.data ?? {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
      };
      const delta = { ...((data.delta as Record<string, unknown>) ?? {}) };
      if (stopReason !== null) delta.stop_reason = stopReason;
      const sum = (pick: (call: BilledUsage) => number): number =>
        calls.reduce((total, call) => total + pick(call), 0);
      const usage = {
        ...((data.usage as Record<string, unknown>) ?? {}),
        input_tokens: sum((c) => c.input),
        cache_creation_input_tokens: sum((c) => c.cacheWrite),
        cache_read_input_tokens: sum((c) => c.cacheRead),
        output_tokens: sum((c) => c.output),
      };
      await this.client.write(namedEvent('message_delta', { ...data, delta, usage }));
    }
    await this.client.write(namedEvent('message_stop', { type: 'message_stop' }));
  }
}
