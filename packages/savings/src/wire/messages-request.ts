import { z } from 'zod';

/** A content part of an Anthropic message, as far as the fake upstream reads it; the rest is kept. */
export const MessagePart = z.looseObject({ type: z.string() });
export type MessagePart = z.infer<typeof MessagePart>;

/** One entry of `messages`. `role` is open: current Claude Code also sends `system` entries mid-conversation. */
export const Message = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(MessagePart)]),
});
export type Message = z.infer<typeof Message>;

/** The parts of an Anthropic Messages request body (POST /v1/messages) the fake upstream needs. */
export const MessagesRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(Message),
  system: z.union([z.string(), z.array(MessagePart)]).optional(),
  tools: z.array(z.looseObject({})).optional(),
  stream: z.boolean().optional(),
});
export type MessagesRequest = z.infer<typeof MessagesRequest>;

/** A message's content as parts: a string is one text part (that is how the provider renders it). */
export function partsOf(content: Message['content']): MessagePart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The text a tool_result carries: its string content, or its text parts joined. */
export function toolResultText(part: MessagePart): string {
  const content = (part as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? (p.text as string) : ''))
    .join('\n');
}
