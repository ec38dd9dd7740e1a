import {
  answerDistilCall,
  DISTIL_TOOLS,
  type DistilCallScope,
  dialectTools,
  isDistilTool,
} from '../expand/distil-tools.js';
import type { ProxySession } from '../session/proxy-session.js';
import type { ResponseItem, ResponsesRequest } from './responses-body.js';

const RESPONSES_TOOLS = DISTIL_TOOLS.map((tool) => ({
  type: 'function',
  name: tool.name,
  description: tool.description,
  parameters: tool.parameters,
  strict: false,
}));

/** The tool definitions as appended to a request, and the tokens they add. */
export const RESPONSES_TOOLS_ADDED = dialectTools(RESPONSES_TOOLS);

/** Appends the distil tools; false (nothing added) when the client defines tools of the same names. */
export function offerResponsesTools(request: ResponsesRequest): boolean {
  const tools = request.tools ?? [];
  if (tools.some((tool) => isDistilTool(tool.name))) return false;
  tools.push(...RESPONSES_TOOLS.map((tool) => ({ ...tool })));
  request.tools = tools;
  return true;
}

/** Whether an output item is a call to one of Distil's tools. */
export function isDistilItem(item: ResponseItem): boolean {
  return item.type === 'function_call' && isDistilTool(item.name);
}

/** Whether an output item is a call the client must run (its own function or custom tool). */
export function isAgentItem(item: ResponseItem): boolean {
  return (item.type === 'function_call' || item.type === 'custom_tool_call') && !isDistilItem(item);
}

/** Answers every distil call among output items as function_call_output items; expansions become sticky. */
export async function answerResponseCalls(
  items: readonly ResponseItem[],
  scope: DistilCallScope,
  session: ProxySession,
): Promise<ResponseItem[]> {
  const outputs: ResponseItem[] = [];
  for (const item of items.filter(isDistilItem)) {
    let input: unknown = null;
    try {
      input = JSON.parse(String(item.arguments ?? '{}'));
    } catch {
      // answered as invalid arguments
    }
    const answer = await answerDistilCall(item.name as 'distil_expand', input, scope);
    if (answer.handle) session.markExpanded(answer.handle);
    outputs.push({
      type: 'function_call_output',
      call_id: item.call_id,
      output: answer.isError ? `error: ${answer.text}` : answer.text,
    });
  }
  return outputs;
}

/** The request's input as a list of items. */
export function inputItems(request: ResponsesRequest): ResponseItem[] {
  if (Array.isArray(request.input)) return request.input;
  if (typeof request.input === 'string') return [{ role: 'user', content: request.input }];
  return [];
}

/**
 * The next request of the loop. With server-side storage it chains on the reply just received and sends
 * only the distil outputs; without, it re-sends the whole history (the reply's items, reasoning with its
 * encrypted content included, then the outputs).
 */
export function continuationRequest(
  request: ResponsesRequest,
  history: readonly ResponseItem[],
  replyId: string,
  outputs: readonly ResponseItem[],
): ResponsesRequest {
  if (request.store !== false) return { ...request, previous_response_id: replyId, input: [...outputs] };
  return { ...request, input: [...inputItems(request), ...history] };
}

const MAX_ALIASES = 256;

/**
 * Remembers how the response the client holds really continues (see Splice): with storage, the id the
 * client will chain on maps to the last upstream response plus distil outputs still owed to it; without,
 * the visible items map back to every upstream item.
 */
export function rememberResponseSplice(
  session: ProxySession,
  request: ResponsesRequest,
  clientId: string,
  lastId: string,
  visible: readonly ResponseItem[],
  history: readonly ResponseItem[],
  pending: readonly ResponseItem[],
): void {
  if (clientId === lastId && pending.length === 0) return;
  if (request.store !== false) {
    session.responseAliases.set(clientId, { id: lastId, pending });
    if (session.responseAliases.size > MAX_ALIASES) {
      const oldest = session.responseAliases.keys().next().value;
      if (oldest !== undefined) session.responseAliases.delete(oldest);
    }
    return;
  }
  const visibleIds = visible.map((item) => item.id).filter((id): id is string => typeof id === 'string');
  if (visibleIds.length !== visible.length || visibleIds.length === 0) return;
  session.splices.set(`items:${visibleIds[0]}`, { replacement: history, pending, visibleIds });
}

/** Puts remembered distil exchanges back into a Responses request; true when something changed. */
export function applyResponseSplices(request: ResponsesRequest, session: ProxySession): boolean {
  let changed = false;
  const previous = request.previous_response_id;
  const alias = previous ? session.responseAliases.get(previous) : undefined;
  if (alias) {
    request.previous_response_id = alias.id;
    if (alias.pending.length > 0) {
      session.splices.applied(alias.pending);
      request.input = [...(alias.pending as ResponseItem[]), ...inputItems(request)];
    }
    changed = true;
  }
  if (session.splices.size === 0 || !Array.isArray(request.input)) return changed;
  const input = request.input;
  const out: ResponseItem[] = [];
  for (let i = 0; i < input.length; i++) {
    const item = input[i]!;
    const splice = typeof item.id === 'string' ? session.splices.get(`items:${item.id}`) : undefined;
    const ids = splice?.visibleIds ?? [];
    if (!splice || !ids.every((id, k) => input[i + k]?.id === id)) {
      out.push(item);
      continue;
    }
    session.splices.applied(splice);
    out.push(...(splice.replacement as ResponseItem[]), ...(splice.pending as ResponseItem[]));
    i += ids.length - 1;
    changed = true;
  }
  if (changed) request.input = out;
  return changed;
}
