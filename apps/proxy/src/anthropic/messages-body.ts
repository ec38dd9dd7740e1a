import { z } from 'zod';
import { checkedAs } from '../json/checked-json.js';
import { looksLikeMessagesBody } from './messages-shape.js';

/** A content part, read only as far as Distil needs; every other field passes through untouched. */
const Part = z.looseObject({ type: z.string() });

/** Message content: a string or a list of parts. */
const Content = z.union([z.string(), z.array(Part)]);

/**
 * The fields of an Anthropic Messages request (POST /v1/messages, /v1/messages/count_tokens) the proxy
 * reads. Validation only gates the rewrite: the proxy mutates the client's own parsed JSON, so every field
 * it does not touch — including ones newer than this schema — goes upstream as the client wrote it.
 * A message's role is any string: besides user and assistant, current clients send `system` messages
 * mid-conversation (Claude Code on Opus 4.8), and a role the proxy does not know must not stop the rest
 * of the request from being compressed — messagesContext reads only the roles it knows, and every other
 * message goes upstream as it came.
 */
export const MessagesBody = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: Content })),
  system: z.union([z.string(), z.array(Part)]).optional(),
  tools: z.array(z.looseObject({ name: z.string().optional(), type: z.string().optional() })).optional(),
  stream: z.boolean().optional(),
});

/** A content part of a message (any type). */
export type AnthropicPart = { type: string; [field: string]: unknown };

/** One message of a request: `user`, `assistant`, `system` (mid-conversation), or a role newer than the proxy. */
export interface AnthropicMessage {
  role: string;
  content: string | AnthropicPart[];
  [field: string]: unknown;
}

/** A request body after validation; mutated in place by the rewrite. */
export interface MessagesRequest {
  model: string;
  messages: AnthropicMessage[];
  system?: string | AnthropicPart[];
  tools?: { name?: string; type?: string; [field: string]: unknown }[];
  stream?: boolean;
  [field: string]: unknown;
}

/** The parsed body when it is a Messages request the proxy can rewrite; null sends it through unchanged. */
export function readMessagesRequest(json: unknown): MessagesRequest | null {
  return checkedAs<MessagesRequest>(json, looksLikeMessagesBody, MessagesBody);
}

/** A response content block (non-streaming response, or accumulated from a stream). */
export interface AnthropicResponseMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  content: AnthropicPart[];
  model: string;
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  [field: string]: unknown;
}

/** Billed usage as Anthropic reports it. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  [field: string]: unknown;
}

/** A non-streaming response body, validated loosely before the expand loop reads it. */
export const ResponseMessage = z.looseObject({
  type: z.literal('message'),
  content: z.array(Part),
  usage: z.looseObject({}).optional(),
});
