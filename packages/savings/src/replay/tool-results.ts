/**
 * The tool results of a conversation in either wire format, keyed by the call they answer, so what the
 * agent saw can be set beside what the proxy forwarded.
 */

type Json = Record<string, unknown>;

/** One tool result: the call id it answers and its text. */
export interface ToolResultText {
  readonly id: string;
  readonly text: string;
}

/** Every tool result of Anthropic messages or Responses input items, in order. */
export function toolResultsOf(entries: readonly unknown[]): ToolResultText[] {
  const out: ToolResultText[] = [];
  for (const entry of entries) {
    if (!isObject(entry)) continue;
    if (typeof entry['call_id'] === 'string' && String(entry['type'] ?? '').endsWith('_output')) {
      out.push({ id: entry['call_id'], text: outputText(entry['output']) });
      continue;
    }
    const content = entry['content'];
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (isObject(part) && part['type'] === 'tool_result' && typeof part['tool_use_id'] === 'string')
        out.push({ id: part['tool_use_id'], text: outputText(part['content']) });
    }
  }
  return out;
}

/** The conversation entries of a request body (`messages` or `input`). */
export function entriesOfBody(body: unknown): unknown[] {
  if (!isObject(body)) return [];
  const entries = body['messages'] ?? body['input'];
  return Array.isArray(entries) ? entries : [];
}

/**
 * The text of a tool result's content: a string, text parts joined, or Codex's `{"output": …}` envelope
 * (Codex 0.5x records shell output as a JSON string holding the text and its exit metadata).
 */
function outputText(content: unknown): string {
  if (typeof content === 'string') return unwrapCodexEnvelope(content);
  if (Array.isArray(content)) {
    return content
      .map((p) => (isObject(p) && typeof p['text'] === 'string' ? p['text'] : ''))
      .filter((t) => t.length > 0)
      .join('\n');
  }
  return '';
}

function unwrapCodexEnvelope(text: string): string {
  if (!text.startsWith('{"output":')) return text;
  try {
    const parsed = JSON.parse(text) as Json;
    return typeof parsed['output'] === 'string' ? parsed['output'] : text;
  } catch {
    return text;
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
