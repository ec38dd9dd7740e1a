import { type PreparedExchange, postUpstream, recordExchange, savedTokensOf } from '../exchange.js';
import { distilHeaders, readUpstreamBody, sendBody } from '../http/relay.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { anthropicUsage, type BilledUsage } from '../savings/billed-usage.js';
import {
  ANTHROPIC_TOOLS_ADDED,
  answerDistilCalls,
  isAgentCall,
  isDistilCall,
  rememberSplice,
  visibleContent,
} from './distil-round.js';
import {
  type AnthropicMessage,
  type AnthropicPart,
  type AnthropicResponseMessage,
  type MessagesRequest,
  ResponseMessage,
} from './messages-body.js';
import { looksLikeResponseMessage } from './messages-shape.js';

/**
 * A non-streaming Messages request with the expand loop: while the model calls only distil tools (and the
 * loop cap allows), the proxy answers them and asks again; the client gets one message holding every
 * other part of every reply, the last reply's stop reason, and the usage of all calls summed. An upstream
 * error at any step reaches the client with its own status and body.
 */
export async function jsonMessages(
  exchange: PreparedExchange,
  request: MessagesRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const { res, rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  const chain: AnthropicMessage[] = [];
  const clientContent: AnthropicPart[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  let expands = 0;
  let upstream = await postUpstream(exchange, body, rewritten);
  let first: AnthropicResponseMessage | null = null;
  try {
    for (let round = 0; ; round++) {
      const raw = await readUpstreamBody(upstream, clock);
      const message = upstream.status === 200 ? parseMessage(raw) : null;
      if (!message) {
        // An error, or a body the proxy does not recognise: the client gets it exactly as sent.
        if (round === 0 || upstream.status !== 200) {
          sendBody(res, upstream.status, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        throw new Error('upstream continuation returned an unreadable message');
      }
      calls.push(anthropicUsage(message.usage));
      first ??= message;
      const distil = message.content.filter(isDistilCall);
      if (distil.length === 0 || !exchange.offered) {
        clientContent.push(...message.content);
        if (round === 0) {
          sendBody(res, 200, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        rememberSplice(session, clientContent, chain, message.content, []);
        return finish(exchange, upstream.headers, first, message, clientContent, calls);
      }
      const visible = visibleContent(message.content);
      clientContent.push(...visible);
      const mixed = message.content.some(isAgentCall);
      if (!mixed && round >= rt.config.expandLoopCap) {
        // At the cap the calls go unanswered and unseen: the client gets what the model said so far.
        rememberSplice(session, clientContent, chain, visible, []);
        return finish(
          exchange,
          upstream.headers,
          first,
          { ...message, stop_reason: 'end_turn' },
          clientContent,
          calls,
        );
      }
      const answered = await answerDistilCalls(message.content, scope, session);
      expands += answered.expands;
      if (mixed) {
        // The client must run its own calls first; the distil results go in with its results next turn.
        rememberSplice(session, clientContent, chain, message.content, answered.results);
        return finish(exchange, upstream.headers, first, message, clientContent, calls);
      }
      chain.push(
        { role: 'assistant', content: message.content },
        { role: 'user', content: answered.results },
      );
      const continuation = { ...request, messages: [...request.messages, ...chain] };
      upstream = await postUpstream(exchange, JSON.stringify(continuation), true);
    }
  } finally {
    recordExchange(
      exchange,
      'anthropic',
      first?.model ?? exchange.model,
      ANTHROPIC_TOOLS_ADDED,
      calls,
      expands,
    );
  }
}

function parseMessage(raw: Buffer): AnthropicResponseMessage | null {
  return parseCheckedAs<AnthropicResponseMessage>(raw, looksLikeResponseMessage, ResponseMessage);
}

/** Sends the one message the client sees: the first reply's identity, every visible part, summed usage. */
function finish(
  exchange: PreparedExchange,
  headers: Parameters<typeof sendBody>[2],
  first: AnthropicResponseMessage,
  last: AnthropicResponseMessage,
  content: AnthropicPart[],
  calls: readonly BilledUsage[],
): void {
  const total = calls.reduce(
    (sum, call) => ({
      input_tokens: sum.input_tokens + call.input,
      cache_creation_input_tokens: sum.cache_creation_input_tokens + call.cacheWrite,
      cache_read_input_tokens: sum.cache_read_input_tokens + call.cacheRead,
      output_tokens: sum.output_tokens + call.output,
    }),
    { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
  );
  const message = {
    ...first,
    content,
    stop_reason: last.stop_reason,
    stop_sequence: last.stop_sequence,
    usage: { ...last.usage, ...total },
  };
  const body = Buffer.from(JSON.stringify(message));
  sendBody(exchange.res, 200, headers, body, distilHeaders(exchange.clock, savedTokensOf(exchange.outcome)));
}
