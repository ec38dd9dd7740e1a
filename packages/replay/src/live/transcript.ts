import type { Block, Decision } from '@distil/contract';
import type { ReplayTurn } from '../runner.js';

/** One message of a rendered transcript. */
export interface TranscriptMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** A context rendered for a chat model: the system text and alternating messages, user first and last. */
export interface Transcript {
  readonly system: string;
  readonly messages: readonly TranscriptMessage[];
}

/** Appended to the last user message: what the model is asked for. */
export const NEXT_STEP_PROMPT =
  'Decide your next step: call exactly one of the tools, or reply with your final answer if the task is done.';

/**
 * Renders a context as a plain-text chat transcript. Blocks become text in messages of their role (tool
 * results as user text headed `[tool result: NAME]`, system blocks joined into the system prompt), each
 * earlier decision follows the blocks of its turn as an assistant line, and consecutive messages of one
 * role are merged. Text rather than provider tool_use/tool_result pairs, because ablation removes blocks
 * freely and a tool_result without its tool_use (or the reverse) is rejected by both APIs; every variant
 * of a turn is rendered the same way, so comparisons stay fair.
 */
export function renderTranscript(context: readonly Block[], turn: ReplayTurn): Transcript {
  const { addedAt } = turn;
  const system: string[] = [];
  const parts: { role: 'user' | 'assistant'; text: string }[] = [];
  const push = (role: 'user' | 'assistant', text: string): void => {
    const body = text.length === 0 ? '(empty)' : text;
    const last = parts[parts.length - 1];
    if (last !== undefined && last.role === role) last.text += `\n\n${body}`;
    else parts.push({ role, text: body });
  };
  for (let t = 0; t <= turn.turn; t++) {
    for (const block of context) {
      if ((addedAt.get(block.id) ?? turn.turn) !== t) continue;
      if (block.role === 'system') system.push(block.text);
      else if (block.role === 'assistant') push('assistant', block.text);
      else if (block.role === 'tool')
        push('user', `[tool result${block.tool ? `: ${block.tool}` : ''}]\n${block.text}`);
      else push('user', block.text);
    }
    const earlier = t < turn.turn ? turn.earlier[t] : undefined;
    if (earlier) push('assistant', renderDecision(earlier));
  }
  if (parts[0]?.role !== 'user') parts.unshift({ role: 'user', text: '(the conversation so far)' });
  push('user', NEXT_STEP_PROMPT);
  return { system: system.join('\n\n'), messages: parts };
}

/** An earlier decision as the assistant line that records it. */
export function renderDecision(decision: Decision): string {
  return decision.type === 'tool_call'
    ? `→ ${decision.tool} ${JSON.stringify(decision.arguments)}`
    : decision.text;
}
