import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import type { ResponseItem, ResponsesRequest } from './responses-body.js';

/** Item types whose `output` is a tool's result, the only text the proxy rewrites in a Responses request. */
const OUTPUT_ITEMS: ReadonlySet<string> = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
]);
/** Item types that are the agent's own calls (their names tell whose output follows). */
const CALL_ITEMS: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call']);

/** The text parts of message content (a string, or parts carrying `text`). */
function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((part) => typeof part?.text === 'string').map((part) => part.text as string);
}

/**
 * The context of a Responses request: tool outputs are the tool texts, instructions and system/developer/
 * user messages are trusted. Reasoning items (with their encrypted content), compaction items, item
 * references, assistant output and every unknown item type are never read or written.
 */
export function responsesContext(body: ResponsesRequest, excludedTools: ReadonlySet<string>): RequestContext {
  const toolTexts: ToolText[] = [];
  const trustedTexts: string[] = [];
  const toolNames = new Map<string, string>();
  if (body.instructions) trustedTexts.push(body.instructions);
  if (typeof body.input === 'string') trustedTexts.push(body.input);
  (Array.isArray(body.input) ? body.input : []).forEach((item, i) => {
    const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
    if (type === 'message' && item.role !== 'assistant') trustedTexts.push(...texts(item.content));
    else if (
      type &&
      CALL_ITEMS.has(type) &&
      typeof item.call_id === 'string' &&
      typeof item.name === 'string'
    ) {
      toolNames.set(item.call_id, item.name);
      trustedTexts.push(String(item.arguments ?? item.input ?? ''));
    } else if (type && OUTPUT_ITEMS.has(type)) addOutput(item, i, toolNames, excludedTools, toolTexts);
  });
  return { toolTexts, trustedTexts: () => trustedTexts };
}

function addOutput(
  item: ResponseItem,
  index: number,
  toolNames: ReadonlyMap<string, string>,
  excludedTools: ReadonlySet<string>,
  out: ToolText[],
): void {
  const id = typeof item.call_id === 'string' ? item.call_id : undefined;
  const tool = id ? toolNames.get(id) : item.type === 'local_shell_call_output' ? 'local_shell' : undefined;
  const compressible = compressibleTool(tool, excludedTools);
  if (typeof item.output === 'string') {
    out.push({
      id,
      tool,
      text: item.output,
      path: ['input', index, 'output'],
      ...(compressible && {
        write: (text: string) => {
          item.output = text;
        },
      }),
    });
    return;
  }
  if (!Array.isArray(item.output)) return;
  (item.output as { type?: string; text?: unknown }[]).forEach((part, p) => {
    if (part?.type !== 'input_text' || typeof part.text !== 'string') return;
    out.push({
      id,
      tool,
      text: part.text,
      path: ['input', index, 'output', p, 'text'],
      ...(compressible && {
        write: (text: string) => {
          part.text = text;
        },
      }),
    });
  });
}

/** Texts that open every turn of one conversation: the instructions and the first user message. */
export function responsesRootTexts(body: ResponsesRequest): string[] {
  const root: string[] = [];
  if (body.instructions) root.push(body.instructions);
  if (typeof body.input === 'string') root.push(body.input);
  else {
    const first = (body.input ?? []).find(
      (item) => (item.type ?? 'message') === 'message' && item.role === 'user',
    );
    if (first) root.push(...texts(first.content));
  }
  return root;
}
