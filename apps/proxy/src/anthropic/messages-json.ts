import type { PreparedExchange } from '../exchange.js';
import { runExpandLoop } from '../expand/expand-loop.js';
import { JsonChannel, type JsonReplyCodec } from '../expand/json-channel.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { anthropicUsage, type BilledUsage } from '../savings/billed-usage.js';
import {
  type AnthropicPart,
  type AnthropicResponseMessage,
  type MessagesRequest,
  ResponseMessage,
} from './messages-body.js';
import { looksLikeResponseMessage } from './messages-shape.js';
import { MessagesTurn } from './messages-turn.js';

/**
 * A non-streaming Messages request with the expand loop: the client gets one message holding every
 * visible part of every reply, the first reply's identity, the last reply's stop reason (`end_turn` at
 * the loop cap), and the usage of all calls summed.
 */
export function jsonMessages(
  exchange: PreparedExchange,
  request: MessagesRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const turn = new MessagesTurn(exchange, request);
  return runExpandLoop(exchange, turn, new JsonChannel(exchange, messagesCodec(turn)), body, rewritten);
}

function messagesCodec(turn: MessagesTurn): JsonReplyCodec<AnthropicResponseMessage, AnthropicPart[]> {
  return {
    noun: 'message',
    parse: (raw) => parseCheckedAs<AnthropicResponseMessage>(raw, looksLikeResponseMessage, ResponseMessage),
    round: (message) => ({
      reply: message.content,
      usage: anthropicUsage(message.usage),
      model: message.model,
    }),
    merge: (messages, ending) => {
      const last = messages.at(-1)!;
      return {
        ...messages[0]!,
        content: turn.clientContent,
        stop_reason: ending.kind === 'capped' ? 'end_turn' : last.stop_reason,
        stop_sequence: last.stop_sequence,
        usage: { ...last.usage, ...usageTotal(messages.map((message) => anthropicUsage(message.usage))) },
      };
    },
  };
}

/** Billed usage summed over calls, in the fields of Anthropic's `usage`. */
export function usageTotal(calls: readonly BilledUsage[]): Record<string, number> {
  const sum = (pick: (call: BilledUsage) => number): number =>
    calls.reduce((total, call) => total + pick(call), 0);
  return {
    input_tokens: sum((call) => call.input),
    cache_creation_input_tokens: sum((call) => call.cacheWrite),
    cache_read_input_tokens: sum((call) => call.cacheRead),
    output_tokens: sum((call) => call.output),
  };
}
