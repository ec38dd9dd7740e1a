import {
  answerDistilCall,
  DISTIL_TOOLS,
  type DistilCallScope,
  dialectTools,
  isDistilTool,
} from '../expand/distil-tools.js';
import { messageFingerprint } from '../expand/splice-memory.js';
import type { ProxySession } from '../session/proxy-session.js';
import type { ChatMessage, ChatRequest, ChatToolCall } from './chat-body.js';

const CHAT_TOOLS = DISTIL_TOOLS.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
}));

/** The tool definitions as appended to a request, and the tokens they add. */
export const CHAT_TOOLS_ADDED = dialectTools(CHAT_TOOLS);

/**
 * Appends the distil tools after the client's own. Returns false (adding nothing) when the client
 * defines a tool of the same name (Distil's MCP server answers those) or asks for several choices (`n`),
 * where one continuation cannot serve every choice.
 */
export function offerChatTools(request: ChatRequest): boolean {
  if ((request.n ?? 1) !== 1) return false;
  const tools = request.tools ?? [];
  if (tools.some((tool) => isDistilTool(tool.function?.name))) return false;
  tools.push(...CHAT_TOOLS.map((tool) => ({ ...tool })));
  request.tools = tools;
  return true;
}

/** Whether a tool call is one of Distil's. */
export function isDistilToolCall(call: ChatToolCall): boolean {
  return isDistilTool(call.function?.name);
}

/** Answers every distil call of an assistant message as `tool` messages; marks expansions sticky. */
export async function answerChatCalls(
  calls: readonly ChatToolCall[],
  scope: DistilCallScope,
  session: ProxySession,
): Promise<ChatMessage[]> {
  const results: ChatMessage[] = [];
  for (const call of calls.filter(isDistilToolCall)) {
    let input: unknown = null;
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      // answered as invalid arguments below
    }
    const answer = await answerDistilCall(call.function.name as 'distil_expand', input, scope);
    if (answer.handle) session.markExpanded(answer.handle);
    results.push({
      role: 'tool',
      tool_call_id: call.id,
      content: answer.isError ? `error: ${answer.text}` : answer.text,
    });
  }
  return results;
}

/** The fingerprint of an assistant message as the client keeps it. */
export function chatFingerprint(message: ChatMessage): string | null {
  const ids = (message.tool_calls ?? []).map((call) => call.id);
  const content = message.content;
  const texts =
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.map((part) => (typeof part.text === 'string' ? part.text : ''))
        : [];
  return messageFingerprint(ids, [texts.join('')]);
}

/** Remembers how the assistant message the client got went upstream (see Splice). */
export function rememberChatSplice(
  session: ProxySession,
  clientMessage: ChatMessage,
  chain: readonly ChatMessage[],
  last: ChatMessage,
  pending: readonly ChatMessage[],
): void {
  if (chain.length === 0 && pending.length === 0) return;
  const fingerprint = chatFingerprint(clientMessage);
  if (fingerprint === null) return;
  session.splices.set(fingerprint, { replacement: [...chain, last], pending });
}

/** Puts remembered distil exchanges back into a request's history; pending results follow the message. */
export function applyChatSplices(request: ChatRequest, session: ProxySession): boolean {
  if (session.splices.size === 0) return false;
  const out: ChatMessage[] = [];
  let changed = false;
  for (const message of request.messages) {
    const fingerprint = message.role === 'assistant' ? chatFingerprint(message) : null;
    const splice = fingerprint ? session.splices.get(fingerprint) : undefined;
    if (!splice) {
      out.push(message);
      continue;
    }
    session.splices.applied(splice);
    out.push(...(splice.replacement as ChatMessage[]), ...(splice.pending as ChatMessage[]));
    changed = true;
  }
  if (changed) request.messages = out;
  return changed;
}
