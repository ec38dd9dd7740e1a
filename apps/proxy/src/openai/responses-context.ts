import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import { withoutInjectedContext } from '../context/injected-context.js';
import type { ResponseItem, ResponsesRequest } from './responses-body.js';
import { CALL_READERS, type FoundText, isCompactionItem, OUTPUT_READERS } from './responses-items.js';

/** The text parts of message content (a string, or parts carrying `text`). */
function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((part) => typeof part?.text === 'string').map((part) => part.text as string);
}

/** An item's type; an input item without one is a message (the API's shorthand `{ role, content }`). */
function typeOf(item: ResponseItem): string | undefined {
  return item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
}

/** The id of the call an output answers. */
function callIdOf(item: ResponseItem): string | undefined {
  if (typeof item.call_id === 'string') return item.call_id;
  return typeof item.id === 'string' && item.type === 'local_shell_call_output' ? item.id : undefined;
}

/**
 * The context of a Responses request: the outputs OUTPUT_READERS knows are the tool texts. Reasoning
 * items (with their encrypted content), compaction items, item references, messages and every item type
 * the proxy does not know are never written. Items before the newest compaction item are not read by the
 * API, so they are left out altogether: neither compressed nor put through the session.
 */
export function responsesContext(body: ResponsesRequest, excludedTools: ReadonlySet<string>): RequestContext {
  let toolTexts: ToolText[] = [];
  let start = 0;
  const toolNames = new Map<string, string>();
  const items = Array.isArray(body.input) ? body.input : [];
  items.forEach((item, i) => {
    const type = typeOf(item);
    if (type === undefined) return;
    if (isCompactionItem(item)) {
      toolTexts = [];
      start = i + 1;
      return;
    }
    const call = CALL_READERS.get(type);
    if (call) {
      const name = call.name(item);
      if (typeof item.call_id === 'string' && name !== undefined) toolNames.set(item.call_id, name);
      return;
    }
    const output = OUTPUT_READERS.get(type);
    if (!output) return;
    const id = callIdOf(item);
    const tool = (id === undefined ? undefined : toolNames.get(id)) ?? output.tool;
    output.read(item, ['input', i], collector(id, tool, compressibleTool(tool, excludedTools), toolTexts));
  });
  const from = start;
  return {
    toolTexts,
    trustedTexts: () => trustedTexts(body, items, from),
    callInputs: () => callInputs(items, from),
  };
}

/** Each call's input (as trustedTexts renders it) by its call id, from the newest compaction on. */
function callInputs(items: readonly ResponseItem[], start: number): Map<string, string> {
  const inputs = new Map<string, string>();
  for (let i = start; i < items.length; i++) {
    const item = items[i]!;
    const type = typeOf(item);
    const call = type === undefined ? undefined : CALL_READERS.get(type);
    const id = typeof item.call_id === 'string' ? item.call_id : item.id;
    if (call && typeof id === 'string') inputs.set(id, call.input(item));
  }
  return inputs;
}

/** A FoundText that adds each text to `out`, writable when its tool may be compressed. */
function collector(
  id: string | undefined,
  tool: string | undefined,
  compressible: boolean,
  out: ToolText[],
): FoundText {
  return (holder, key, path) => {
    out.push({
      id,
      tool,
      text: holder[key] as string,
      path,
      ...(compressible && {
        write: (text: string) => {
          holder[key] = text;
        },
      }),
    });
  };
}

/**
 * What the user asked and what the agent did, from the newest compaction on: user messages (without the
 * context a client wraps into them, see withoutInjectedContext), the agent's own messages and the input
 * of every call it made. Not `instructions`, not system or developer messages: a client sends those to
 * every user (Codex's prompt, its permissions and skills lists), so they say nothing about this task.
 */
function trustedTexts(body: ResponsesRequest, items: readonly ResponseItem[], start: number): string[] {
  const out: string[] = [];
  const add = (text: string) => {
    if (text.length > 0) out.push(text);
  };
  if (typeof body.input === 'string') add(withoutInjectedContext(body.input));
  for (let i = start; i < items.length; i++) {
    const item = items[i]!;
    const type = typeOf(item);
    if (type === 'message' && item.role === 'user')
      for (const text of texts(item.content)) add(withoutInjectedContext(text));
    else if (type === 'message' && item.role === 'assistant')
      for (const text of texts(item.content)) add(text);
    else if (type !== undefined) {
      const call = CALL_READERS.get(type);
      if (call) add(call.input(item));
    }
  }
  return out;
}

/**
 * Texts that open every turn of one conversation and tell it from others: the instructions, the
 * client's own conversation key (`prompt_cache_key`, which Codex sets to its thread id), and the first
 * user message that says something in the user's words. Codex's first user message is its
 * `<environment_context>` (cwd, shell, date), the same for every conversation started in one folder on
 * one day; keyed on that alone, they would all share one session.
 */
export function responsesRootTexts(body: ResponsesRequest): string[] {
  const root: string[] = [];
  if (body.instructions) root.push(body.instructions);
  if (typeof body.prompt_cache_key === 'string') root.push(body.prompt_cache_key);
  if (typeof body.input === 'string') {
    root.push(body.input);
    return root;
  }
  const users = (body.input ?? []).filter((item) => typeOf(item) === 'message' && item.role === 'user');
  const first = users.find((item) =>
    texts(item.content).some((text) => withoutInjectedContext(text).length > 0),
  );
  const opening = first ?? users[0];
  if (opening) root.push(...texts(opening.content));
  return root;
}
