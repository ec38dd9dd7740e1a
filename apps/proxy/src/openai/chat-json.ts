import type { PreparedExchange } from '../exchange.js';
import { runExpandLoop } from '../expand/expand-loop.js';
import { JsonChannel, type JsonReplyCodec } from '../expand/json-channel.js';
import { parseCheckedAs } from '../json/checked-json.js';
import { openaiChatUsage } from '../savings/billed-usage.js';
import { ChatCompletion, type ChatCompletionBody, type ChatMessage, type ChatRequest } from './chat-body.js';
import { looksLikeChatCompletion } from './chat-shape.js';
import { ChatTurn } from './chat-turn.js';
import { sumUsageFields } from './usage-sum.js';

/**
 * A non-streaming Chat Completions request with the expand loop: the client gets one completion whose
 * message joins the text of every round and carries only its own tool calls, with the first
 * completion's identity, the last round's finish reason (`stop` at the loop cap) and the usage of all
 * rounds summed.
 */
export function jsonChat(
  exchange: PreparedExchange,
  request: ChatRequest,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const turn = new ChatTurn(exchange, request);
  return runExpandLoop(exchange, turn, new JsonChannel(exchange, chatCodec(turn)), body, rewritten);
}

function chatCodec(turn: ChatTurn): JsonReplyCodec<ChatCompletionBody, ChatMessage> {
  return {
    noun: 'completion',
    parse: (raw) => {
      const completion = parseCheckedAs<ChatCompletionBody>(raw, looksLikeChatCompletion, ChatCompletion);
      return completion !== null && completion.choices.length > 0 ? completion : null;
    },
    round: (completion) => ({
      reply: completion.choices[0]!.message,
      usage: openaiChatUsage(completion.usage),
      model: completion.model,
    }),
    merge: (completions, ending) => {
      const choice = completions.at(-1)!.choices[0]!;
      const finish = ending.kind === 'capped' ? 'stop' : choice.finish_reason;
      return {
        ...completions[0]!,
        choices: [{ ...choice, index: 0, message: turn.clientMessage(ending.kind), finish_reason: finish }],
        usage: sumUsageFields(completions.map((completion) => completion.usage ?? {})),
      };
    },
  };
}
