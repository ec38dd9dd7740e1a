import { basename } from 'node:path';
import { z } from 'zod';
import type { RecordedCall, RecordedSession, RecordedUsage } from './recorded-session.js';

/**
 * One line of a Claude Code session log (`~/.claude/projects/<project>/<session>.jsonl`, and a subagent's
 * own log beside it, whose lines say `isSidechain: true`). Only `user` and `assistant` lines carry
 * conversation; the rest (summary, system, attachment, file-history-snapshot, mode…) are the client's
 * bookkeeping. Claude Code writes each content part of a streamed reply as its own line, all sharing the
 * message `id` and its `usage`.
 */
const LogLine = z.looseObject({
  type: z.string(),
  isSidechain: z.boolean().nullish(),
  sessionId: z.string().nullish(),
  message: z.unknown().optional(),
});

const Part = z.looseObject({ type: z.string() });
const Content = z.union([z.string(), z.array(Part)]);
const UserMessage = z.looseObject({ role: z.literal('user'), content: Content });
const Usage = z.looseObject({
  input_tokens: z.number().nonnegative().default(0),
  cache_creation_input_tokens: z.number().nonnegative().nullish(),
  cache_read_input_tokens: z.number().nonnegative().nullish(),
  output_tokens: z.number().nonnegative().default(0),
});
const AssistantMessage = z.looseObject({
  id: z.string().nullish(),
  role: z.literal('assistant'),
  model: z.string().nullish(),
  content: Content,
  usage: Usage.nullish(),
});

/**
 * Claude Code marks replies it made up itself (an interrupted request, an API error shown as a message)
 * with this model name; they were never a model call and the client does not send them back.
 */
const SYNTHETIC_MODEL = '<synthetic>';

/** The model a log's calls are priced at when a reply names none. */
export const CLAUDE_CODE_DEFAULT_MODEL = 'claude-sonnet-4-5';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether parsed JSONL records look like a Claude Code session log. */
export function looksLikeClaudeCodeLog(records: readonly unknown[]): boolean {
  return records.some(
    (r) => isObject(r) && (r['type'] === 'user' || r['type'] === 'assistant') && isObject(r['message']),
  );
}

type Part = z.infer<typeof Part>;
/** A message being assembled (a type, not an interface, so it is a `Record<string, unknown>`). */
type Entry = { role: 'user' | 'assistant'; content: Part[] };

/**
 * A Claude Code log as the requests Claude Code made: consecutive user lines (a prompt, tool results of
 * parallel calls) are one user message as Claude Code sends them; the parts of one streamed reply are one
 * assistant message, and each reply is one call with the usage the provider billed for it. A subagent's
 * log is a session of its own (`claude-code-subagent`). Lines that do not parse as a log line are skipped
 * and counted with the file's unreadable lines.
 */
export function importClaudeCodeLog(
  records: readonly unknown[],
  file: string,
  skippedLines: number,
): RecordedSession {
  const entries: Entry[] = [];
  const calls: RecordedCall[] = [];
  let skipped = skippedLines;
  let sessionId: string | undefined;
  let sidechain = false;
  let replyId: string | undefined;

  const append = (role: Entry['role'], parts: Part[]): void => {
    const last = entries.at(-1);
    if (last?.role === role) last.content.push(...parts);
    else entries.push({ role, content: [...parts] });
  };

  for (const record of records) {
    const line = LogLine.safeParse(record);
    if (!line.success) {
      skipped++;
      continue;
    }
    if (line.data.type !== 'user' && line.data.type !== 'assistant') continue;
    sessionId ??= line.data.sessionId ?? undefined;
    sidechain ||= line.data.isSidechain === true;
    if (line.data.type === 'user') {
      const message = UserMessage.safeParse(line.data.message);
      if (!message.success) {
        skipped++;
        continue;
      }
      replyId = undefined;
      append('user', partsOf(message.data.content));
      continue;
    }
    const message = AssistantMessage.safeParse(line.data.message);
    if (!message.success) {
      skipped++;
      continue;
    }
    const { id, model, usage } = message.data;
    if (model === SYNTHETIC_MODEL) continue;
    const parts = partsOf(message.data.content);
    const continues = id != null && id === replyId && entries.at(-1)?.role === 'assistant';
    if (continues) {
      entries.at(-1)!.content.push(...parts);
      // Every line of a reply repeats its usage; the last one is the final count.
      const call = calls.at(-1)!;
      calls[calls.length - 1] = { ...call, usage: usage ? usageOf(usage) : call.usage };
      continue;
    }
    replyId = id ?? undefined;
    if (entries.length === 0 || entries.at(-1)!.role === 'assistant') {
      // A reply with no user turn before it (a resumed log starts so) or right after another reply (a
      // retried request): its request cannot be rebuilt as Claude Code sent it, so it joins what is there.
      append('assistant', parts);
      continue;
    }
    entries.push({ role: 'assistant', content: parts });
    calls.push({
      end: entries.length - 1,
      replyEnd: entries.length,
      model: model ?? CLAUDE_CODE_DEFAULT_MODEL,
      usage: usage ? usageOf(usage) : null,
    });
  }
  return {
    id: sessionId ? (sidechain ? `${sessionId}/${basename(file, '.jsonl')}` : sessionId) : basename(file),
    source: sidechain ? 'claude-code-subagent' : 'claude-code',
    file,
    api: 'messages',
    entries,
    calls,
    system: null,
    tools: null,
    skippedLines: skipped,
  };
}

function partsOf(content: z.infer<typeof Content>): Part[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function usageOf(usage: z.infer<typeof Usage>): RecordedUsage {
  return {
    input: usage.input_tokens,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    output: usage.output_tokens,
  };
}
