import { type MessagesRequest, partsOf, toolResultText } from './messages-request.js';
import { itemsOf, messageText, type ResponsesRequest, toolOutputText } from './responses-request.js';

/** One tool call in the conversation and what came back for it. */
export interface ToolCallSeen {
  readonly id: string;
  readonly name: string;
  /** Parsed JSON input, or the raw text of a freeform (custom) tool call. */
  readonly input: unknown;
  /** The result text, or null while the call has no result yet. */
  readonly output: string | null;
  /** A call of Distil's own tools, answered by the proxy. */
  readonly distil: boolean;
}

/** What a model can read in one request, whatever the wire format. */
export interface ConversationView {
  /** Every tool call in order, with its result. */
  readonly calls: readonly ToolCallSeen[];
  /** Names of the tools the request offers. */
  readonly offeredTools: ReadonlySet<string>;
  /** Text of the user turns (the prompt and any reminders a client adds). */
  readonly userText: string;
}

const isDistil = (name: string): boolean => name.startsWith('distil_');

/** The view of an Anthropic Messages request. */
export function messagesView(body: MessagesRequest): ConversationView {
  const calls: ToolCallSeen[] = [];
  const byId = new Map<string, number>();
  const userText: string[] = [];
  for (const message of body.messages) {
    for (const part of partsOf(message.content)) {
      if (part.type === 'tool_use') {
        const name = String(part.name ?? '');
        byId.set(String(part.id), calls.length);
        calls.push({
          id: String(part.id),
          name,
          input: part.input ?? {},
          output: null,
          distil: isDistil(name),
        });
      } else if (part.type === 'tool_result') {
        const at = byId.get(String(part.tool_use_id));
        if (at !== undefined) calls[at] = { ...calls[at]!, output: toolResultText(part) };
      } else if (part.type === 'text' && message.role === 'user' && typeof part.text === 'string') {
        userText.push(part.text);
      }
    }
  }
  const offeredTools = new Set((body.tools ?? []).map((tool) => String(tool.name ?? tool.type ?? '')));
  return { calls, offeredTools, userText: userText.join('\n') };
}

/** The view of an OpenAI Responses request. */
export function responsesView(body: ResponsesRequest): ConversationView {
  const calls: ToolCallSeen[] = [];
  const byId = new Map<string, number>();
  const userText: string[] = [];
  for (const item of itemsOf(body.input)) {
    const record = item as Record<string, unknown>;
    if (
      item.type === 'function_call' ||
      item.type === 'custom_tool_call' ||
      item.type === 'local_shell_call'
    ) {
      const name = String(record.name ?? (item.type === 'local_shell_call' ? 'local_shell' : ''));
      const input =
        item.type === 'function_call' ? parseArguments(record.arguments) : (record.input ?? record.action);
      const id = String(record.call_id ?? record.id);
      byId.set(id, calls.length);
      calls.push({ id, name, input, output: null, distil: isDistil(name) });
    } else if (
      item.type === 'function_call_output' ||
      item.type === 'custom_tool_call_output' ||
      item.type === 'local_shell_call_output'
    ) {
      const at = byId.get(String(record.call_id ?? record.id));
      if (at !== undefined) calls[at] = { ...calls[at]!, output: toolOutputText(item) };
    } else if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
      userText.push(messageText(item));
    }
  }
  const offeredTools = new Set(
    (body.tools ?? []).map((tool) => String((tool as { name?: unknown }).name ?? tool.type ?? '')),
  );
  return { calls, offeredTools, userText: userText.join('\n') };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
