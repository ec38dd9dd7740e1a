import type { PreparedExchange } from '../exchange.js';
import { runExpandLoop } from '../expand/expand-loop.js';
import { JsonChannel, type JsonReplyCodec } from '../expand/json-channel.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { openaiResponsesUsage } from '../savings/billed-usage.js';
import { type ResponseBody, ResponseObject, type ResponsesRequest } from './responses-body.js';
import { looksLikeResponseObject } from './responses-shape.js';
import { ResponsesTurn } from './responses-turn.js';
import { sumUsageFields } from './usage-sum.js';

/**
 * A non-streaming Responses request with the expand loop. The client gets one response: the first
 * reply's id, every visible output item of every round, the last reply's status, and the usage of all
 * rounds summed.
 */
export function jsonResponses(
  exchange: PreparedExchange,
  request: ResponsesRequest,
  body: Buffer | string,
  rewritten: boolean,
  link: (responseId: string) => void,
): Promise<void> {
  const turn = new ResponsesTurn(exchange, request, link);
  return runExpandLoop(exchange, turn, new JsonChannel(exchange, responsesCodec(turn)), body, rewritten);
}

function responsesCodec(turn: ResponsesTurn): JsonReplyCodec<ResponseBody, ResponseBody> {
  return {
    noun: 'response',
    parse: (raw) => parseCheckedAs<ResponseBody>(raw, looksLikeResponseObject, ResponseObject),
    round: (reply) => ({ reply, usage: openaiResponsesUsage(reply.usage), model: reply.model }),
    merge: (replies) => ({
      ...replies.at(-1)!,
      id: replies[0]!.id,
      output: turn.visible,
      usage: sumUsageFields(replies.map((reply) => reply.usage ?? {})),
    }),
  };
}
