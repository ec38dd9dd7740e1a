import {
  answerDistilCall,
  DISTIL_TOOLS,
  type DistilCallScope,
  dialectTools,
  isDistilTool,
} from '../expand/distil-tools.js';
import { messageFingerprint } from '../expand/splice-memory.js';
import type { ProxySession } from '../session/proxy-session.js';
import type { AnthropicMessage, AnthropicPart, MessagesRequest } from './messages-body.js';

/** Whether a content part is a call to one of Distil's tools. */
export function isDistilCall(part: AnthropicPart): boolean {
  return part.type === 'tool_use' && isDistilTool(part.name);
}

/** Whether a content part is a call to one of the agent's own tools (the client must run it). */
export function isAgentCall(part: AnthropicPart): boolean {
  return part.type === 'tool_use' && !isDistilTool(part.name);
}

/** Content as the client sees it: every part but the distil calls. */
export function visibleContent(content: readonly AnthropicPart[]): AnthropicPart[] {
  return content.filter((part) => !isDistilCall(part));
}

const ANTHROPIC_TOOLS = DISTIL_TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  input_schema: t.parameters,
}));

/** The tool definitions as appended to a request, and the tokens they add. */
export const ANTHROPIC_TOOLS_ADDED = dialectTools(ANTHROPIC_TOOLS);

/**
 * Appends the distil tools in Anthropic's shape after the client's own tools. Returns false — and adds
 * nothing — when the client defines a tool of the same name itself (Distil's MCP server): then the calls
 * are the client's to answer and the proxy leaves them alone.
 */
export function offerDistilTools(request: MessagesRequest): boolean {
  const tools = request.tools ?? [];
  if (tools.some((tool) => isDistilTool(tool.name))) return false;
  tools.push(...ANTHROPIC_TOOLS.map((tool) => ({ ...tool })));
  request.tools = tools;
  return true;
}

/** Answers every distil call of an assistant message as tool_result parts; marks expansions sticky. */
export async function answerDistilCalls(
  content: readonly AnthropicPart[],
  scope: DistilCallScope,
  session: ProxySession,
): Promise<{ results: AnthropicPart[]; expands: number }> {
  const results: AnthropicPart[] = [];
  for (const call of content.filter(isDistilCall)) {
    const answer = await answerDistilCall(call.name as 'distil_expand', call.input, scope);
    if (answer.handle) session.markExpanded(answer.handle);
    results.push({
      type: 'tool_result',
      tool_use_id: call.id,
      content: answer.text,
      ...(answer.isError ? { is_error: true } : {}),
    });
  }
  return { results, expands: results.length };
}

/** The fingerprint of an assistant message's content as a client keeps it. */
export function contentFingerprint(content: string | readonly AnthropicPart[]): string | null {
  if (typeof content === 'string') return messageFingerprint([], [content]);
  const ids: string[] = [];
  const texts: string[] = [];
  for (const part of content) {
    if (part.type === 'tool_use' && typeof part.id === 'string') ids.push(part.id);
    else if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  return messageFingerprint(ids, texts);
}

/**
 * Remembers how the assistant message the client got really went upstream: the exchanges the proxy
 * answered (`chain`), the last upstream message, and distil results still owed to it.
 */
export function rememberSplice(
  session: ProxySession,
  clientContent: readonly AnthropicPart[],
  chain: readonly AnthropicMessage[],
  last: readonly AnthropicPart[],
  pending: readonly AnthropicPart[],
): void {
  if (chain.length === 0 && pending.length === 0) return;
  const fingerprint = contentFingerprint(clientContent);
  if (fingerprint === null) return;
  session.splices.set(fingerprint, {
    replacement: [...chain, { role: 'assistant', content: [...last] }],
    pending,
  });
}

/**
 * Puts remembered distil exchanges back into a request's history (see Splice). A splice whose pending
 * results have no user message to go into is skipped: the request must stay valid as the client wrote it.
 */
export function applySplices(request: MessagesRequest, session: ProxySession): boolean {
  if (session.splices.size === 0) return false;
  const out: AnthropicMessage[] = [];
  let changed = false;
  const messages = request.messages;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const fingerprint = message.role === 'assistant' ? contentFingerprint(message.content) : null;
    const splice = fingerprint ? session.splices.get(fingerprint) : undefined;
    const next = messages[i + 1];
    if (!splice || (splice.pending.length > 0 && next?.role !== 'user')) {
      out.push(message);
      continue;
    }
    session.splices.applied(splice);
    out.push(...(splice.replacement as AnthropicMessage[]));
    if (splice.pending.length > 0 && next) {
      const own: AnthropicPart[] =
        typeof next.content === 'string' ? [{ type: 'text', text: next.content }] : next.content;
      out.push({ ...next, content: [...(splice.pending as AnthropicPart[]), ...own] });
      i++;
    }
    changed = true;
  }
  if (changed) request.messages = out;
  return changed;
}
