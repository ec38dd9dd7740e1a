import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import type { AnthropicPart, MessagesRequest } from './messages-body.js';

/**
 * The context of an Anthropic Messages request. Only the text inside `tool_result` parts may be
 * rewritten; thinking and redacted_thinking (and their signatures), server tool blocks (server_tool_use,
 * web_search_tool_result, …), images, documents and every other part are never read or written, and a
 * part's `cache_control` stays where it is because only the text inside the part changes.
 */
export function messagesContext(body: MessagesRequest, excludedTools: ReadonlySet<string>): RequestContext {
  const toolTexts: ToolText[] = [];
  const toolNames = new Map<string, string>();
  body.messages.forEach((message, m) => {
    const { content } = message;
    if (typeof content === 'string') return;
    content.forEach((part, p) => {
      if (part.type === 'tool_use' && typeof part.id === 'string' && typeof part.name === 'string') {
        toolNames.set(part.id, part.name);
      } else if (part.type === 'tool_result' && message.role === 'user') {
        const id = typeof part.tool_use_id === 'string' ? part.tool_use_id : undefined;
        const tool = id === undefined ? undefined : toolNames.get(id);
        const path = ['messages', m, 'content', p, 'content'];
        addToolResult(part, id, tool, compressibleTool(tool, excludedTools), path, toolTexts);
      }
    });
  });
  return { toolTexts, trustedTexts: () => trustedTexts(body) };
}

/** The system prompt, every text message and part, and the input of every tool call, in order. */
function trustedTexts(body: MessagesRequest): string[] {
  const texts: string[] = [];
  if (typeof body.system === 'string') texts.push(body.system);
  else for (const part of body.system ?? []) if (typeof part.text === 'string') texts.push(part.text);
  for (const { content } of body.messages) {
    if (typeof content === 'string') {
      texts.push(content);
      continue;
    }
    for (const part of content) {
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (part.type === 'tool_use' && typeof part.id === 'string' && typeof part.name === 'string')
        texts.push(JSON.stringify(part.input ?? {}));
    }
  }
  return texts;
}

/** A tool result's text: its string content, or each of its text parts (images and the rest untouched). */
function addToolResult(
  part: AnthropicPart,
  id: string | undefined,
  tool: string | undefined,
  compressible: boolean,
  path: readonly (string | number)[],
  out: ToolText[],
): void {
  const { content } = part;
  if (typeof content === 'string') {
    out.push({
      id,
      tool,
      text: content,
      path,
      ...(compressible && {
        write: (text: string) => {
          part.content = text;
        },
      }),
    });
    return;
  }
  if (!Array.isArray(content)) return;
  (content as AnthropicPart[]).forEach((inner, i) => {
    if (inner?.type !== 'text' || typeof inner.text !== 'string') return;
    out.push({
      id,
      tool,
      text: inner.text,
      path: [...path, i, 'text'],
      ...(compressible && {
        write: (text: string) => {
          inner.text = text;
        },
      }),
    });
  });
}
