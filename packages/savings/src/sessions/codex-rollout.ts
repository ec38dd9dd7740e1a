import { basename } from 'node:path';
import { parseOrThrow } from '@distil/contract';
import { z } from 'zod';
import type { RecordedCall, RecordedSession, RecordedUsage } from './recorded-session.js';

/**
 * One line of a Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): `{ timestamp,
 * type, payload }`. `response_item` lines are the conversation, written with the same serialisation Codex
 * sends as request input; `session_meta`, `turn_context` and `event_msg` lines are what the client knew
 * around them (the session id, the model of each turn, what the provider billed).
 */
const RolloutLine = z.looseObject({ type: z.string(), payload: z.looseObject({}) });

const SessionMetaLine = z.looseObject({
  payload: z.looseObject({ id: z.string().min(1).optional(), model: z.string().min(1).optional() }),
});
const TurnContextLine = z.looseObject({
  payload: z.looseObject({ model: z.string().min(1).optional() }),
});

const TokenUsage = z.looseObject({
  input_tokens: z.number().nonnegative(),
  cached_input_tokens: z.number().nonnegative().nullish(),
  output_tokens: z.number().nonnegative(),
  reasoning_output_tokens: z.number().nonnegative().nullish(),
  total_tokens: z.number().nonnegative().nullish(),
});
type TokenUsage = z.infer<typeof TokenUsage>;
/** `info` is null before the first reply of a session (Codex reports the rate limits alone then). */
const TokenCountLine = z.looseObject({
  payload: z.looseObject({
    type: z.literal('token_count'),
    info: z.looseObject({ total_token_usage: TokenUsage.nullish(), last_token_usage: TokenUsage }).nullable(),
  }),
});

/** What a tool's output may be: Codex writes a string; the Responses API also takes content parts. */
const ToolOutput = z.union([z.string(), z.array(z.looseObject({})), z.looseObject({})]);
const Content = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

/**
 * The fields replay reads from each kind of item, so a broken one is reported where it is rather than
 * sent as a request the API refuses. Kinds not listed only need a `type`.
 */
const ITEM_FIELDS: Record<string, z.ZodObject> = {
  message: z.looseObject({ type: z.literal('message'), role: z.string(), content: Content }),
  reasoning: z.looseObject({
    type: z.literal('reasoning'),
    summary: z.array(z.looseObject({})),
    encrypted_content: z.string().nullish(),
  }),
  function_call: z.looseObject({
    type: z.literal('function_call'),
    name: z.string(),
    arguments: z.string(),
    call_id: z.string(),
  }),
  function_call_output: z.looseObject({
    type: z.literal('function_call_output'),
    call_id: z.string(),
    output: ToolOutput,
  }),
  custom_tool_call: z.looseObject({
    type: z.literal('custom_tool_call'),
    name: z.string(),
    input: z.string(),
    call_id: z.string(),
  }),
  custom_tool_call_output: z.looseObject({
    type: z.literal('custom_tool_call_output'),
    call_id: z.string(),
    output: ToolOutput,
  }),
  local_shell_call: z.looseObject({ type: z.literal('local_shell_call'), action: z.looseObject({}) }),
};
const ITEM_LINES = new Map(
  Object.entries(ITEM_FIELDS).map(([type, fields]) => [type, z.looseObject({ payload: fields })]),
);
const ANY_ITEM_LINE = z.looseObject({ payload: z.looseObject({ type: z.string() }) });

/** Items the model writes: a run of them, with nothing from the client between, is one call's reply. */
const MODEL_ITEMS = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'image_generation_call',
]);

/**
 * Items Codex keeps in its history but never sends: `ghost_snapshot` marks a git snapshot for undo, and
 * `other` is what it writes for an item it could not read.
 */
const UNSENT_ITEMS = new Set(['ghost_snapshot', 'other']);

/** The model a rollout's calls are priced at when no line names one (Codex's default model). */
export const CODEX_DEFAULT_MODEL = 'gpt-5-codex';

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

/**
 * A Codex rollout as the Responses requests Codex made. Entries are the `response_item` payloads in
 * order, as recorded (encrypted reasoning included), less the items Codex never sends. Each maximal run
 * of model-written items is one call's reply; its request is every entry before it, and its model the
 * latest `turn_context` model.
 *
 * A call's bill is the `token_count` event Codex wrote when its response completed. Codex writes that
 * event before the reply's items (they are recorded once the response is handled), so a fresh count that
 * follows client input waits for the next reply; a count that comes straight after a reply, with no
 * input between, belongs to that reply, which is how a client that records items as they stream would
 * write it. A count whose totals equal the last one's repeats it (Codex does so at each turn's start)
 * and is ignored; a count pending when a turn is aborted was for a reply never recorded, and is dropped.
 *
 * A `compacted` line ends the import: Codex replaces its history with a summary there, so later requests
 * no longer extend the recorded conversation and cannot be rebuilt from it.
 *
 * Records that are not `{ type, payload }` objects, of a type Codex does not write, and metadata lines
 * (session_meta, turn_context, token_count) that do not validate are skipped and counted: they cost a
 * label or a bill at most. A `response_item` that does not validate throws a ValidationError naming the
 * record (its 1-based position among the file's JSON lines) and the field, because dropping it would
 * leave the conversation with a call and no output, or an output and no call.
 */
export function importCodexRollout(
  records: readonly unknown[],
  file: string,
  skippedLines: number,
): RecordedSession {
  const entries: Record<string, unknown>[] = [];
  const calls: RecordedCall[] = [];
  let skipped = skippedLines;
  let sessionId: string | undefined;
  let metaModel: string | undefined;
  let turnModel: string | undefined;
  /** Whether the last entry was written by the model, so the next model item extends its reply. */
  let inReply = false;
  /** A fresh bill seen after client input, for the reply that comes next. */
  let pending: RecordedUsage | null = null;
  let lastTotals: string | undefined;

  for (const [index, record] of records.entries()) {
    const line = RolloutLine.safeParse(record);
    if (!line.success) {
      skipped++;
      continue;
    }
    const { type, payload } = line.data;
    if (type === 'compacted') break;
    if (type === 'session_meta') {
      const meta = SessionMetaLine.safeParse(record);
      if (!meta.success) skipped++;
      else {
        sessionId ??= meta.data.payload.id;
        metaModel ??= meta.data.payload.model;
      }
    } else if (type === 'turn_context') {
      const context = TurnContextLine.safeParse(record);
      if (!context.success) skipped++;
      else turnModel = context.data.payload.model ?? turnModel;
    } else if (type === 'event_msg') {
      if (payload['type'] === 'turn_aborted') pending = null;
      if (payload['type'] !== 'token_count') continue;
      const count = TokenCountLine.safeParse(record);
      if (!count.success) {
        skipped++;
        continue;
      }
      const info = count.data.payload.info;
      if (info === null) continue;
      const totals = info.total_token_usage ? totalsKey(info.total_token_usage) : undefined;
      if (totals !== undefined && totals === lastTotals) continue;
      lastTotals = totals;
      const usage = usageOf(info.last_token_usage);
      const last = calls.at(-1);
      if (inReply && last && last.usage === null) calls[calls.length - 1] = { ...last, usage };
      else pending = usage;
    } else if (type === 'response_item') {
      const itemType = typeof payload['type'] === 'string' ? payload['type'] : '';
      const where = `Codex rollout ${file}, record ${index + 1} (response_item ${itemType || 'without type'})`;
      parseOrThrow(ITEM_LINES.get(itemType) ?? ANY_ITEM_LINE, record, where);
      const role = payload['role'];
      if (UNSENT_ITEMS.has(itemType) || (itemType === 'message' && role === 'system')) continue;
      entries.push(payload);
      const byModel = MODEL_ITEMS.has(itemType) || (itemType === 'message' && role === 'assistant');
      if (!byModel) {
        inReply = false;
        continue;
      }
      if (inReply) {
        const last = calls.at(-1)!;
        calls[calls.length - 1] = { ...last, replyEnd: entries.length };
        continue;
      }
      inReply = true;
      calls.push({
        end: entries.length - 1,
        replyEnd: entries.length,
        model: turnModel ?? metaModel ?? CODEX_DEFAULT_MODEL,
        usage: pending,
      });
      pending = null;
    } else {
      skipped++;
    }
  }
  return {
    id: sessionId ?? basename(file),
    source: 'codex',
    file,
    api: 'responses',
    entries,
    calls,
    // The rollout's `instructions` are the user's AGENTS.md, which Codex also sends as a user message
    // (recorded in entries); Codex's own prompt is not recorded, so replay takes the client profile's.
    system: null,
    tools: null,
    skippedLines: skipped,
  };
}

/** OpenAI counts cached input inside `input_tokens`; a recorded bill keeps the two apart. */
function usageOf(usage: TokenUsage): RecordedUsage {
  const cached = Math.min(usage.cached_input_tokens ?? 0, usage.input_tokens);
  return {
    input: usage.input_tokens - cached,
    cacheWrite: 0,
    cacheRead: cached,
    output: usage.output_tokens,
  };
}

/** The session's running totals, compared to tell a new bill from a repeated one. */
function totalsKey(totals: TokenUsage): string {
  return [
    totals.input_tokens,
    totals.cached_input_tokens ?? 0,
    totals.output_tokens,
    totals.reasoning_output_tokens ?? 0,
    totals.total_tokens ?? 0,
  ].join(',');
}
