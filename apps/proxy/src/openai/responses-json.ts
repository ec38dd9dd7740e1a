import { type PreparedExchange, postUpstream, recordExchange, savedTokensOf } from '../exchange.js';
import { distilHeaders, readUpstreamBody, sendBody } from '../http/relay.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { type BilledUsage, openaiResponsesUsage } from '../savings/billed-usage.js';
import { sumChatUsage } from './chat-json.js';
import {
  type ResponseBody,
  type ResponseItem,
  ResponseObject,
  type ResponsesRequest,
} from './responses-body.js';
import {
  answerResponseCalls,
  continuationRequest,
  isAgentItem,
  isDistilItem,
  RESPONSES_TOOLS_ADDED,
  rememberResponseSplice,
} from './responses-distil.js';
import { looksLikeResponseObject } from './responses-shape.js';

/**
 * A non-streaming Responses request with the expand loop. The client gets one response: the first
 * reply's id (its next request chains on it, and the proxy maps it to the last reply), every visible
 * output item of every round, the last reply's status, and the usage of all rounds summed.
 */
export async function jsonResponses(
  exchange: PreparedExchange,
  request: ResponsesRequest,
  body: Buffer | string,
  rewritten: boolean,
  link: (responseId: string) => void,
): Promise<void> {
  const { res, rt, clock, session, outcome } = exchange;
  const calls: BilledUsage[] = [];
  const usages: Record<string, unknown>[] = [];
  const visible: ResponseItem[] = [];
  const history: ResponseItem[] = [];
  const scope = { store: rt.store, handlesInContext: outcome.handles };
  let expands = 0;
  let first: ResponseBody | null = null;
  let upstream = await postUpstream(exchange, body, rewritten);
  try {
    for (let round = 0; ; round++) {
      const raw = await readUpstreamBody(upstream, clock);
      const reply = upstream.status === 200 ? parseResponse(raw) : null;
      if (!reply) {
        if (round === 0 || upstream.status !== 200) {
          sendBody(res, upstream.status, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        throw new Error('upstream continuation returned an unreadable response');
      }
      calls.push(openaiResponsesUsage(reply.usage));
      usages.push(reply.usage ?? {});
      first ??= reply;
      link(reply.id);
      const distil = exchange.offered ? reply.output.filter(isDistilItem) : [];
      const shown = reply.output.filter((item) => !distil.includes(item));
      visible.push(...shown);
      history.push(...reply.output);
      if (distil.length === 0) {
        if (round === 0) {
          sendBody(res, 200, upstream.headers, raw, distilHeaders(clock, savedTokensOf(outcome)));
          return;
        }
        rememberResponseSplice(session, request, first.id, reply.id, visible, history, []);
        return finish(exchange, upstream.headers, first, reply, visible, usages);
      }
      const outputs = await answerResponseCalls(reply.output, scope, session);
      expands += outputs.length;
      if (reply.output.some(isAgentItem) || round >= rt.config.expandLoopCap) {
        // The client runs its own calls first (or the cap is reached): the distil outputs go upstream with
        // its next request.
        rememberResponseSplice(session, request, first.id, reply.id, visible, history, outputs);
        return finish(exchange, upstream.headers, first, reply, visible, usages);
      }
      history.push(...outputs);
      const next = continuationRequest(request, history, reply.id, outputs);
      upstream = await postUpstream(exchange, JSON.stringify(next), true);
    }
  } finally {
    recordExchange(exchange, 'openai', first?.model ?? exchange.model, RESPONSES_TOOLS_ADDED, calls, expands);
  }
}

function parseResponse(raw: Buffer): ResponseBody | null {
  return parseCheckedAs<ResponseBody>(raw, looksLikeResponseObject, ResponseObject);
}

function finish(
  exchange: PreparedExchange,
  headers: Parameters<typeof sendBody>[2],
  first: ResponseBody,
  last: ResponseBody,
  output: ResponseItem[],
  usages: readonly Record<string, unknown>[],
): void {
  const response = { ...last, id: first.id, output, usage: sumChatUsage(usages) };
  const body = Buffer.from(JSON.stringify(response));
  sendBody(exchange.res, 200, headers, body, distilHeaders(exchange.clock, savedTokensOf(exchange.outcome)));
}
