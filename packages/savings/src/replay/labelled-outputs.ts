import type { RecordedSession } from '../sessions/recorded-session.js';
import { firstSeenAt, laterTokens, normalisedLine } from './needed-lines.js';
import { sharesToken } from './reference-tokens.js';
import { writtenText } from './request-bodies.js';
import { toolResultsOf } from './tool-results.js';

type Json = Record<string, unknown>;

/** One tool output of a recorded session, line by line, labelled by what the agent did afterwards. */
export interface LabelledOutput {
  readonly session: string;
  /** The call id the output answers. */
  readonly id: string;
  /** Its lines as the agent read them (empty lines included). */
  readonly lines: readonly string[];
  /** 1 where the line is needed: it shares a reference token with a reply written after it was read. */
  readonly needed: Uint8Array;
  /** The trusted context a keep model may condition on: the session's first user text … */
  readonly task: string;
  /** … the input of the tool call that produced the output (its command, path or pattern) … */
  readonly input: string;
  /** … and everything the agent wrote before it read the output (replies and tool inputs). */
  readonly earlier: string;
  /**
   * The reference tokens of every reply written after the output was read: what the label looks for
   * (known only after the fact; for measuring what a keep model could know, never as a feature).
   */
  readonly writtenAfter: ReadonlySet<string>;
}

/**
 * Every tool output of a session with the needed-line label `distil savings` measures fidelity by, and the
 * context that was known before it was read: the data a keep model learns from and is judged on.
 */
export function labelledOutputs(session: RecordedSession): LabelledOutput[] {
  const later = laterTokens(session);
  const seenAt = firstSeenAt(session);
  const inputs = toolInputs(session.entries);
  const task = firstUserText(session.entries);
  const written = session.entries.map((e) => writtenText(e));
  const out: LabelledOutput[] = [];
  const done = new Set<string>();
  for (const result of toolResultsOf(session.entries)) {
    const k = seenAt.get(result.id);
    if (k === undefined || done.has(result.id)) continue;
    done.add(result.id);
    const lines = result.text.split('\n');
    const needed = Uint8Array.from(lines, (raw) => {
      const line = normalisedLine(raw);
      return line.length > 0 && sharesToken(line, later[k]!) ? 1 : 0;
    });
    out.push({
      session: session.id,
      id: result.id,
      lines,
      needed,
      task,
      input: inputs.get(result.id) ?? '',
      earlier: written.slice(0, session.calls[k]!.end).join('\n'),
      writtenAfter: later[k]!,
    });
  }
  return out;
}

/** The input of every tool call, by call id, in either wire format. */
function toolInputs(entries: readonly Json[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries) {
    const callId = entry['call_id'];
    if (typeof callId === 'string' && entry['type'] === 'function_call')
      out.set(callId, String(entry['arguments'] ?? ''));
    if (typeof callId === 'string' && entry['type'] === 'custom_tool_call')
      out.set(callId, String(entry['input'] ?? ''));
    if (typeof callId === 'string' && entry['type'] === 'local_shell_call')
      out.set(callId, JSON.stringify(entry['action'] ?? {}));
    const content = entry['content'];
    if (!Array.isArray(content)) continue;
    for (const part of content as Json[]) {
      if (part['type'] === 'tool_use' && typeof part['id'] === 'string')
        out.set(part['id'], JSON.stringify(part['input'] ?? {}));
    }
  }
  return out;
}

/** The first text a user wrote (not a tool result): the task, as the session states it. */
function firstUserText(entries: readonly Json[]): string {
  for (const entry of entries) {
    if (entry['role'] !== 'user') continue;
    const content = entry['content'];
    if (typeof content === 'string' && content.trim() !== '') return content;
    if (!Array.isArray(content)) continue;
    const texts = (content as Json[])
      .filter((p) => (p['type'] === 'text' || p['type'] === 'input_text') && typeof p['text'] === 'string')
      .map((p) => p['text'] as string);
    if (texts.length > 0) return texts.join('\n');
  }
  return '';
}
