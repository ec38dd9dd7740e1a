import { z } from 'zod';
import { checkedAs } from '../json/checked-json.js';
import { looksLikeChatBody } from './chat-shape.js';

const Part = z.looseObject({ type: z.string() });

/**
 * The fields of an OpenAI Chat Completions request the proxy reads. As for Anthropic, validation only
 * gates the rewrite: the client's own parsed JSON is mutated, so every other field goes upstream as written.
 */
export const ChatBody = z.looseObject({
  model: z.string().min(1),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: z.union([z.string(), z.array(Part), z.null()]).optional(),
      tool_calls: z
        .array(
          z.looseObject({
            id: z.string(),
            function: z.looseObject({ name: z.string(), arguments: z.unknown() }),
          }),
        )
        .nullish(),
      tool_call_id: z.string().nullish(),
    }),
  ),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().nullish(),
  n: z.number().int().nullish(),
});

/** One tool call as Chat Completions writes it. */
export interface ChatToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
  [field: string]: unknown;
}

/** One message of a request. */
export interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string; [field: string]: unknown }[] | null;
  tool_calls?: ChatToolCall[] | null;
  tool_call_id?: string | null;
  [field: string]: unknown;
}

/** A Chat Completions request after validation; mutated in place by the rewrite. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { type: string; function?: { name?: string }; [field: string]: unknown }[];
  stream?: boolean | null;
  n?: number | null;
  [field: string]: unknown;
}

/** The parsed body when it is a Chat Completions request the proxy can rewrite; null passes it through. */
export function readChatRequest(json: unknown): ChatRequest | null {
  return checkedAs<ChatRequest>(json, looksLikeChatBody, ChatBody);
}

/** A non-streaming response, read loosely. */
export const ChatCompletion = z.looseObject({
  object: z.literal('chat.completion'),
  choices: z.array(
    z.looseObject({ message: z.looseObject({ role: z.string() }), finish_reason: z.string().nullish() }),
  ),
});

/** A non-streaming response. */
export interface ChatCompletionBody {
  id: string;
  model: string;
  choices: { index: number; message: ChatMessage; finish_reason: string | null; [field: string]: unknown }[];
  usage?: Record<string, unknown> | null;
  [field: string]: unknown;
}
