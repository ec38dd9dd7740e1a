import { basename } from 'node:path';
import { z } from 'zod';
import type { RecordedCall, RecordedSession, RecordedUsage } from './recorded-session.js';

/**
 * One line of a Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): `session_meta`
 * (the session id), `turn_context` (the model of the turns that follow), `response_item` (a Responses
 * item exactly as Codex sends it back as input, or as the model produced it) and `event_msg` (the UI's
 * events; `token_count` carries the provider's usage of the last call).
 */
const RolloutLine = z.looseObject({ type: z.string(), payload: z.unknown() });
const SessionMeta = z.looseObject({ id: z.string().optional(), model: z.string().optional() });
const TurnContext = z.looseObject({ model: z.string().optional() });
const Item = z.looseObject({ type: z.string(), role: z.string().optional() });
const TokenCount = z.looseObject({
  type: z.literal('token_count'),
  info: z
    .looseObject({
      total_token_usage: z.looseObject({ total_tokens: z.number() }).optional(),
      last_token_usage: z.looseObject({
        input_tokens: z.number().nonnegative(),
        cached_input_tokens: z.number().nonnegative().default(0),
        output_tokens: z.number().nonnegative(),
      }),
    })
    .nullable(),
});

/** The model a rollout's calls are priced at when it names none (Codex CLI 0.5x's default). */
export const CODEX_DEFAULT_MODEL = 'gpt-5-codex';

/** Items the model writes; every other item is input the client adds (messages, tool outputs). */
const MODEL_ITEMS = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
]);
/** Items Codex records for itself and never sends to the provider. */
const CLIENT_ONLY_ITEMS = new Set(['ghost_snapshot']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether parsed JSONL records look like a Codex rollout. */
export function looksLikeCodexRollout(records: readonly unknown[]): boolean {
  return records.some(
    (r) =>
      isObject(r) &&
      (r['type'] === 'session_meta' || r['type'] === 'response_item') &&
      isObject(r['payload']),
  );
}

const producedByModel = (item: z.infer<typeof Item>): boolean =>
  MODEL_ITEMS.has(item.type) || (item.type === 'message' && item.role === 'assistant');

/**
 * A Codex rollout as the requests Codex made. A model call's reply is a run of consecutive items the
 * model produced (reasoning, tool calls, an assistant message); its request is every item before the run.
 * The provider's usage of a call is the next `token_count` event whose running total moved (Codex repeats
 * the last count on some events). Lines that are not rollout lines are skipped and counted.
 */
export function importCodexRollout(
  records: readonly unknown[],
  file: string,
  skippedLines: number,
): RecordedSession {
  const entries: Record<string, unknown>[] = [];
  const calls: RecordedCall[] = [];
  let skipped = skippedLines;
  let id: string | undefined;
  let model = CODEX_DEFAULT_MODEL;
  let lastTotal = -1;
  let run: { start: number; model: string } | null = null;

  const closeRun = (): void => {
    if (run === null) return;
    // A run at the very start has no request to replay (a resumed rollout can begin so).
    if (run.start > 0) {
      calls.push({ end: run.start, replyEnd: entries.length, model: run.model, usage: null });
    }
    run = null;
  };

  for (const record of records) {
    const line = RolloutLine.safeParse(record);
    if (!line.success) {
      skipped++;
      continue;
    }
    const { type, payload } = line.data;
    if (type === 'session_meta') {
      const meta = SessionMeta.safeParse(payload);
      if (meta.success) {
        id ??= meta.data.id;
        if (meta.data.model) model = meta.data.model;
      }
    } else if (type === 'turn_context') {
      const context = TurnContext.safeParse(payload);
      if (context.success && context.data.model) model = context.data.model;
    } else if (type === 'response_item') {
      const item = Item.safeParse(payload);
      if (!item.success) {
        skipped++;
        continue;
      }
      if (CLIENT_ONLY_ITEMS.has(item.data.type)) continue;
      if (producedByModel(item.data)) run ??= { start: entries.length, model };
      else closeRun();
      entries.push(item.data);
    } else if (type === 'event_msg') {
      const count = TokenCount.safeParse(payload);
      if (!count.success || count.data.info === null) continue;
      const total = count.data.info.total_token_usage?.total_tokens ?? -1;
      if (total === lastTotal) continue;
      lastTotal = total;
      closeRun();
      // The count is of the call just made; a call aborted before its count has none.
      const last = calls.at(-1);
      if (last && last.usage === null)
        calls[calls.length - 1] = { ...last, usage: usageOf(count.data.info.last_token_usage) };
    }
  }
  closeRun();
  return {
    id: id ?? basename(file, '.jsonl'),
    source: 'codex',
    file,
    api: 'responses',
    entries,
    calls,
    system: null,
    tools: null,
    skippedLines: skipped,
  };
}

function usageOf(u: {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
}): RecordedUsage {
  return {
    input: Math.max(0, u.input_tokens - u.cached_input_tokens),
    cacheWrite: 0,
    cacheRead: u.cached_input_tokens,
    output: u.output_tokens,
  };
}
