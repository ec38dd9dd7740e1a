import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import { withoutInjectedContext } from '../context/injected-context.js';
import type { ChatMessage, ChatRequest } from './chat-body.js';

/**
 * The context of a Chat Completions request: `tool` (and legacy `function`) messages are the tool texts,
 * their content a string or a list of text parts. Trusted — the anchors' source — are what the user asked
 * (user text, without the context a client wraps into it, see withoutInjectedContext) and what the agent
 * did (assistant text and the arguments of its calls); system and developer messages are not, since a
 * client sends them to every user. Only the text of tool messages is ever rewritten; image, audio and
 * file parts, and messages of roles the proxy does not know, stay as they are.
 */
export function chatContext(body: ChatRequest, excludedTools: ReadonlySet<string>): RequestContext {
  const toolTexts: ToolText[] = [];
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
    for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
  });
  return {
    toolTexts,
    trustedTexts: () => trustedTexts(body.messages),
    callInputs: () => callInputs(body.messages),
  };
}

/** Each call's arguments (as trustedTexts renders them) by its id. */
function callInputs(messages: readonly ChatMessage[]): Map<string, string> {
  const inputs = new Map<string, string>();
  for (const message of messages)
    for (const call of message.tool_calls ?? []) {
      const args = call.function.arguments;
      inputs.set(call.id, typeof args === 'string' ? args : JSON.stringify(args));
    }
  return inputs;
}

/** User text (client-injected context taken out), assistant text, and the arguments of each call. */
function trustedTexts(messages: readonly ChatMessage[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const own = message.role === 'user' ? withoutInjectedContext : (text: string) => text;
    const add = (text: string) => {
      const kept = own(text);
      if (kept.length > 0) texts.push(kept);
    };
    const { content } = message;
    if (typeof content === 'string') add(content);
    else if (Array.isArray(content))
      for (const part of content) if (part.type === 'text' && typeof part.text === 'string') add(part.text);
    for (const call of message.tool_calls ?? []) {
      const args = call.function.arguments;
      add(typeof args === 'string' ? args : JSON.stringify(args));
    }
  }
  return texts;
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
