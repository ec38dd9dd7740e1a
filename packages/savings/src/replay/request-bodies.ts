import type { ClientProfile } from '../profiles/client-profile.js';
import type { RecordedSession } from '../sessions/recorded-session.js';

/**
 * What a replayed request carries in its tool results: what the agent saw, nothing (the ceiling), or a
 * text of its own for each result, by the call id it answers (the needed-lines bound).
 */
export type ToolResults = 'recorded' | 'removed' | ReadonlyMap<string, string>;

type Json = Record<string, unknown>;

/**
 * The body of the request the agent made for call `k`, rebuilt the way its client builds it: the
 * profile's system prompt and tools in front (or the session's own, when the log recorded them), the
 * conversation so far, and the client's cache breakpoints. Bodies are not streamed: a replay reads
 * whole replies, and the proxy rewrites a request the same way whether it streams or not.
 */
export function requestBody(
  session: RecordedSession,
  profile: ClientProfile,
  k: number,
  toolResults: ToolResults = 'recorded',
  model?: string,
): Json {
  const call = session.calls[k];
  if (!call) throw new RangeError(`${session.id} has no call ${k}`);
  const conversation = session.entries.slice(0, call.end);
  const entries =
    toolResults === 'recorded'
      ? conversation
      : conversation.map((e) =>
          withToolResults(e, toolResults === 'removed' ? () => '' : (id) => toolResults.get(id)),
        );
  const chosenModel = model ?? call.model;
  if (session.api === 'messages') {
    if (profile.api !== 'messages') throw new TypeError(`a Messages session needs a Messages client profile`);
    return {
      model: chosenModel,
      max_tokens: profile.maxTokens,
      system:
        session.system === null
          ? profile.system
          : [{ type: 'text', text: session.system, cache_control: { type: 'ephemeral' } }],
      tools: session.tools ?? profile.tools,
      messages: withMessageBreakpoint(entries),
      stream: false,
    };
  }
  if (profile.api !== 'responses')
    throw new TypeError(`a Responses session needs a Responses client profile`);
  // A rollout records the user's instructions as messages but not the client's own developer prompt.
  const hasPrelude = entries.some((e) => e['role'] === 'developer');
  return {
    ...profile.fields,
    model: chosenModel,
    instructions: session.system ?? profile.instructions,
    input: hasPrelude ? entries : [...profile.prelude, ...entries],
    tools: session.tools ?? profile.tools,
    prompt_cache_key: session.id,
    stream: false,
  };
}

/** What the provider wrote for call `k`: the reply's text and tool calls, for counting when unbilled. */
export function replyText(session: RecordedSession, k: number): string {
  const call = session.calls[k]!;
  return session.entries
    .slice(call.end, call.replyEnd)
    .map((entry) => writtenText(entry))
    .join('\n');
}

/** Text a model wrote in one reply entry: text parts, tool-call names and inputs (thinking is not). */
export function writtenText(entry: Json): string {
  const out: string[] = [];
  const content = entry['content'];
  if (typeof content === 'string' && entry['role'] === 'assistant') out.push(content);
  if (Array.isArray(content)) {
    for (const part of content as Json[]) {
      if ((part['type'] === 'text' || part['type'] === 'output_text') && typeof part['text'] === 'string')
        out.push(part['text']);
      if (part['type'] === 'tool_use') out.push(`${String(part['name'])} ${JSON.stringify(part['input'])}`);
    }
  }
  if (entry['type'] === 'function_call') out.push(`${String(entry['name'])} ${String(entry['arguments'])}`);
  if (entry['type'] === 'custom_tool_call') out.push(`${String(entry['name'])} ${String(entry['input'])}`);
  if (entry['type'] === 'local_shell_call') out.push(JSON.stringify(entry['action'] ?? {}));
  return out.join('\n');
}

/**
 * Claude Code marks the last part of the last message as a cache breakpoint on every request (the
 * captured requests in the agents' fixtures show it), so each request writes what the next one reads.
 */
function withMessageBreakpoint(messages: readonly Json[]): Json[] {
  const out = [...messages];
  const last = out.at(-1);
  if (!last) return out;
  const content = last['content'];
  const parts: Json[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : [...(content as Json[])];
  for (let i = parts.length - 1; i >= 0; i--) {
    const type = parts[i]!['type'];
    // thinking parts cannot carry a breakpoint; the part before them takes it
    if (type === 'thinking' || type === 'redacted_thinking') continue;
    parts[i] = { ...parts[i], cache_control: { type: 'ephemeral' } };
    break;
  }
  out[out.length - 1] = { ...last, content: parts };
  return out;
}

/** An entry whose tool results say `text(id)` instead (unchanged where it gives none). */
function withToolResults(entry: Json, text: (id: string) => string | undefined): Json {
  if (entry['type'] === 'function_call_output' || entry['type'] === 'custom_tool_call_output') {
    const output = text(String(entry['call_id']));
    return output === undefined ? entry : { ...entry, output };
  }
  const content = entry['content'];
  if (!Array.isArray(content)) return entry;
  return {
    ...entry,
    content: (content as Json[]).map((part) => {
      if (part['type'] !== 'tool_result') return part;
      const replaced = text(String(part['tool_use_id']));
      return replaced === undefined ? part : { ...part, content: replaced };
    }),
  };
}
