import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import type { ChatRequest } from './chat-body.js';

/**
 * The context of a Chat Completions request: `tool` (and legacy `function`) messages are the tool texts;
 * system, developer and user text and the assistant's own calls are trusted. Only the text of tool
 * messages is ever rewritten; image, audio and file parts stay as they are.
 */
export function chatContext(body: ChatRequest, excludedTools: ReadonlySet<string>): RequestContext {
  const toolTexts: ToolText[] = [];
  const trustedTexts: string[] = [];
  const toolNames = new Map<string, string>();
  body.messages.forEach((message, m) => {
    const { content } = message;
    if (message.role === 'tool' || message.role === 'function') {
      const id = message.tool_call_id ?? undefined;
      const named = typeof message.name === 'string' ? message.name : undefined;
      const tool = named ?? (id ? toolNames.get(id) : undefined);
      const compressible = compressibleTool(tool, excludedTools);
      if (typeof content === 'string') {
        toolTexts.push({
          id,
          tool,
          text: content,
          path: ['messages', m, 'content'],
          ...(compressible && {
            write: (text: string) => {
              message.content = text;
            },
          }),
        });
      } else if (Array.isArray(content)) {
        content.forEach((part, p) => {
          if (part.type !== 'text' || typeof part.text !== 'string') return;
          toolTexts.push({
            id,
            tool,
            text: part.text,
            path: ['messages', m, 'content', p, 'text'],
            ...(compressible && {
              write: (text: string) => {
                part.text = text;
              },
            }),
          });
        });
      }
      return;
    }
    if (typeof content === 'string') trustedTexts.push(content);
    else if (Array.isArray(content))
      for (const part of content) if (typeof part.text === 'string') trustedTexts.push(part.text);
    for (const call of message.tool_calls ?? []) {
      toolNames.set(call.id, call.function.name);
      trustedTexts.push(
        typeof call.function.arguments === 'string'
          ? call.function.arguments
          : JSON.stringify(call.function.arguments),
      );
    }
  });
  return { toolTexts, trustedTexts: () => trustedTexts };
}

/** Texts that open every turn of one conversation: the leading system/developer messages and the first user message. */
export function chatRootTexts(body: ChatRequest): string[] {
  const texts: string[] = [];
  for (const message of body.messages) {
    const { content } = message;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content))
      for (const part of content) if (typeof part.text === 'string') texts.push(part.text);
    if (message.role !== 'system' && message.role !== 'developer') break;
  }
  return texts;
}
