import { compressibleTool, type RequestContext, type ToolText } from '../context/context-block.js';
import { withoutInjectedContext } from '../context/injected-context.js';
import type { JsonPath } from '../json/json-scan.js';
import type { AnthropicMessage, AnthropicPart, MessagesRequest } from './messages-body.js';
import { CALL_PARTS, type FoundText, PART_READERS } from './messages-parts.js';

/** Where the history the model sees begins: a message, and the first part of it that counts. */
interface HistoryStart {
  readonly message: number;
  readonly part: number;
}

/**
 * A compaction block (beta compaction, `compact_20260112`) that holds a summary or its opaque state. The
 * API sends the model nothing that precedes such a block, so neither may Distil read it. A block with
 * neither is a failed compaction, which the API treats as a no-op.
 */
function isCompaction(part: AnthropicPart): boolean {
  return (
    part.type === 'compaction' &&
    (typeof part.content === 'string' || typeof part.encrypted_content === 'string')
  );
}

/**
 * The context of an Anthropic Messages request. The texts rewritten are those PART_READERS finds: tool
 * results (string or mixed part lists), MCP and server tool results, plain-text documents and search
 * results. Messages of any other role — `system` messages mid-conversation, roles newer than the proxy —
 * and every part not in that table (thinking and its signatures, images, web search results, compaction
 * blocks, …) are never read or written, and a part's `cache_control` stays where it is because only text
 * inside the part changes.
 *
 * History before the last compaction block is not sent to the model, so it is left out altogether: its
 * texts are neither compressed nor put through the session, and no back-reference can point at them.
 */
export function messagesContext(body: MessagesRequest, excludedTools: ReadonlySet<string>): RequestContext {
  let toolTexts: ToolText[] = [];
  let start: HistoryStart = { message: 0, part: 0 };
  const toolNames = new Map<string, string>();
  const messages = body.messages;
  for (let m = 0; m < messages.length; m++) {
    const { content, role } = messages[m]!;
    if (typeof content === 'string' || (role !== 'user' && role !== 'assistant')) continue;
    for (let p = 0; p < content.length; p++) {
      const part = content[p]!;
      if (isCompaction(part)) {
        toolTexts = [];
        start = { message: m, part: p };
        continue;
      }
      if (CALL_PARTS.has(part.type) && typeof part.id === 'string' && typeof part.name === 'string') {
        toolNames.set(part.id, part.name);
        continue;
      }
      const reader = PART_READERS.get(part.type);
      if (!reader || reader.role !== role) continue;
      const id = typeof part.tool_use_id === 'string' ? part.tool_use_id : undefined;
      const tool = id === undefined ? undefined : toolNames.get(id);
      const found = collector(id, tool, compressibleTool(tool, excludedTools), toolTexts);
      reader.read(part, ['messages', m, 'content', p], found);
    }
  }
  const from = start;
  return {
    toolTexts,
    trustedTexts: () => trustedTexts(body.messages, from),
    callInputs: () => callInputs(body.messages, from),
  };
}

/** Each call's input (as trustedTexts renders it) by its id, from the start of the history the model sees. */
function callInputs(messages: readonly AnthropicMessage[], start: HistoryStart): Map<string, string> {
  const inputs = new Map<string, string>();
  for (let m = start.message; m < messages.length; m++) {
    const { role, content } = messages[m]!;
    if (role !== 'assistant' || typeof content === 'string') continue;
    for (let p = m === start.message ? start.part : 0; p < content.length; p++) {
      const part = content[p]!;
      if (CALL_PARTS.has(part.type) && typeof part.id === 'string')
        inputs.set(part.id, JSON.stringify(part.input ?? {}));
    }
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
  return (holder, key, path: JsonPath) => {
    const text = holder[key] as string;
    // built whole rather than by spreading an optional part: this runs for every tool text of every request
    out.push(
      compressible
        ? {
            id,
            tool,
            text,
            path,
            write: (written: string) => {
              holder[key] = written;
            },
          }
        : { id, tool, text, path },
    );
  };
}

/**
 * What the user asked and what the agent did, from the start of the history the model sees: the user's
 * own text (client-injected context taken out, see withoutInjectedContext), the agent's text and the
 * input of every call it made, and a compaction block's summary of what came before. Not the system
 * prompt, not `system` messages, not tool definitions: a client ships those to every user, so their
 * words say nothing about this task.
 */
function trustedTexts(messages: readonly AnthropicMessage[], start: HistoryStart): string[] {
  const texts: string[] = [];
  const add = (text: string) => {
    if (text.length > 0) texts.push(text);
  };
  for (let m = start.message; m < messages.length; m++) {
    const { role, content } = messages[m]!;
    if (role !== 'user' && role !== 'assistant') continue;
    const own = role === 'user' ? withoutInjectedContext : (text: string) => text;
    if (typeof content === 'string') {
      add(own(content));
      continue;
    }
    for (let p = m === start.message ? start.part : 0; p < content.length; p++) {
      const part = content[p]!;
      if (part.type === 'text' && typeof part.text === 'string') add(own(part.text));
      else if (role === 'assistant' && CALL_PARTS.has(part.type)) add(JSON.stringify(part.input ?? {}));
      else if (part.type === 'compaction' && typeof part.content === 'string') add(part.content);
    }
  }
  return texts;
}
