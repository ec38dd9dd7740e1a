import { parseOrThrow, type Trajectory, ValidationError } from '@distil/contract';
import { z } from 'zod';
import { AnthropicContent, AnthropicConversation } from './anthropic-content.js';
import { TurnBuilder } from './turn-builder.js';

/**
 * One line of a Claude Code session log (`~/.claude/projects/<project>/<session>.jsonl`). Only `user` and
 * `assistant` lines carry conversation; others (summary, system, file-history-snapshot) are skipped.
 * Claude Code writes each content part of a streamed assistant message as its own line, all sharing the
 * message's `id`.
 */
const SessionLine = z
  .object({
    type: z.string(),
    isSidechain: z.boolean().nullish(),
    sessionId: z.string().nullish(),
    message: z.unknown().optional(),
  })
  .loose();

const UserMessage = z.object({ role: z.literal('user'), content: AnthropicContent }).loose();
const AssistantMessage = z
  .object({ id: z.string().nullish(), role: z.literal('assistant'), content: AnthropicContent })
  .loose();

/** Whether JSONL records look like a Claude Code session. */
export function looksLikeClaudeCode(records: readonly unknown[]): boolean {
  return records.some(
    (r) =>
      typeof r === 'object' &&
      r !== null &&
      ((r as Record<string, unknown>)['type'] === 'user' ||
        (r as Record<string, unknown>)['type'] === 'assistant') &&
      typeof (r as Record<string, unknown>)['message'] === 'object',
  );
}

/** Imports a Claude Code session log; `records` are its parsed lines, in order (line numbers are 1-based). */
export function importClaudeCode(records: readonly unknown[], fallbackId: string): Trajectory {
  const builder = new TurnBuilder();
  const conversation = new AnthropicConversation(builder);
  let sessionId: string | undefined;
  // Parts of one streamed assistant message arrive on consecutive lines; they are one decision.
  let assistantId: string | undefined;
  let assistantParts: z.infer<typeof AnthropicContent> & unknown[] = [];
  const flushAssistant = (): void => {
    if (assistantParts.length > 0) conversation.assistant(assistantParts);
    assistantParts = [];
    assistantId = undefined;
  };
  // A subagent's own log is all sidechain lines; older logs mixed a subagent's lines into the main one.
  const mixed = records.some(
    (r) => typeof r === 'object' && r !== null && (r as Record<string, unknown>)['isSidechain'] === false,
  );
  records.forEach((record, index) => {
    const where = `Claude Code session, line ${index + 1}`;
    const line = parseOrThrow(SessionLine, record, where);
    if (mixed && line.isSidechain === true) return;
    sessionId ??= line.sessionId ?? undefined;
    if (line.type === 'assistant') {
      const message = parseOrThrow(AssistantMessage, line.message, `${where}: message`);
      const id = message.id ?? undefined;
      if (id === undefined || id !== assistantId) flushAssistant();
      assistantId = id;
      const parts =
        typeof message.content === 'string'
          ? [{ type: 'text' as const, text: message.content }]
          : message.content;
      assistantParts.push(...parts);
    } else if (line.type === 'user') {
      flushAssistant();
      conversation.user(parseOrThrow(UserMessage, line.message, `${where}: message`).content);
    }
  });
  flushAssistant();
  const trajectory = builder.build(sessionId ?? fallbackId, 'claude-code', false);
  if (trajectory.turns.length === 0) {
    throw new ValidationError('Claude Code session', [
      { path: '(file)', message: 'no user or assistant lines' },
    ]);
  }
  return trajectory;
}
