import { parseOrThrow, type Trajectory } from '@distil/contract';
import { z } from 'zod';
import { TurnBuilder, toolCallDecision } from './turn-builder.js';

const ModelToolCall = z
  .object({
    id: z.string().nullish(),
    function: z.object({ name: z.string(), arguments: z.unknown() }).loose(),
  })
  .loose();

const ToolCallMetadata = z
  .object({
    function_name: z.string().min(1),
    tool_call_id: z.string().nullish(),
    model_response: z
      .object({
        id: z.string().nullish(),
        choices: z
          .array(
            z
              .object({
                message: z
                  .object({ tool_calls: z.array(ModelToolCall).nullish() })
                  .loose()
                  .nullish(),
              })
              .loose(),
          )
          .nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** One OpenHands event: an action (by the agent or the user) or an observation of one. */
const OpenHandsEvent = z
  .object({
    source: z.enum(['agent', 'user', 'environment']).nullish(),
    action: z.string().nullish(),
    observation: z.string().nullish(),
    message: z.string().nullish(),
    content: z.string().nullish(),
    args: z.record(z.string(), z.unknown()).nullish(),
    tool_call_metadata: ToolCallMetadata.nullish(),
  })
  .loose()
  .refine((event) => Boolean(event.action) !== Boolean(event.observation), {
    message: 'an OpenHands event has exactly one of `action` or `observation`',
  });
type OpenHandsEvent = z.infer<typeof OpenHandsEvent>;

/** One line of OpenHands' evaluation `output.jsonl`: an instance and the event history of its run. */
const OpenHandsRun = z
  .object({ instance_id: z.union([z.string(), z.number()]).nullish(), history: z.array(OpenHandsEvent) })
  .loose();

/** Whether parsed JSON looks like an OpenHands run (an object with an event `history`) or an event list. */
export function looksLikeOpenHands(json: unknown): boolean {
  const events = Array.isArray(json)
    ? json
    : typeof json === 'object' && json !== null
      ? (json as Record<string, unknown>)['history']
      : undefined;
  return (
    Array.isArray(events) &&
    events.length > 0 &&
    events.every((e) => typeof e === 'object' && e !== null && ('action' in e || 'observation' in e)) &&
    events.some((e) => typeof e === 'object' && e !== null && 'source' in e)
  );
}

/** Imports one OpenHands run (a line of output.jsonl, or a bare event list). `where` names it in errors. */
export function importOpenHands(json: unknown, fallbackId: string, where: string): Trajectory {
  const run = parseOrThrow(
    OpenHandsRun,
    Array.isArray(json) ? { history: json } : json,
    `OpenHands run (${where})`,
  );
  const builder = new TurnBuilder();
  let lastResponse: string | undefined;
  for (const event of run.history) {
    if (event.action) lastResponse = readAction(event, builder, lastResponse);
    else readObservation(event, builder);
  }
  const id = run.instance_id === null || run.instance_id === undefined ? fallbackId : String(run.instance_id);
  return builder.build(id, 'openhands', false);
}

/** Fields of an action's `args` that are bookkeeping rather than the call's arguments. */
const NON_ARGUMENTS = new Set([
  'thought',
  'is_input',
  'blocking',
  'is_static',
  'hidden',
  'confirmation_state',
]);

function readAction(
  event: OpenHandsEvent,
  builder: TurnBuilder,
  lastResponse: string | undefined,
): string | undefined {
  const args = event.args ?? {};
  const text = stringArg(args, 'content') ?? event.message ?? '';
  if (event.action === 'system') {
    builder.add({ role: 'system', text });
    return lastResponse;
  }
  if (event.action === 'recall') return lastResponse;
  if (event.source === 'user') {
    builder.add({ role: 'user', text });
    return lastResponse;
  }
  if (event.action === 'message' && !event.tool_call_metadata) {
    builder.decide({ type: 'final', text });
    builder.add({ role: 'assistant', text });
    return undefined;
  }
  const meta = event.tool_call_metadata;
  const tool = meta?.function_name ?? event.action ?? 'unknown';
  const call = meta?.model_response?.choices?.[0]?.message?.tool_calls?.find(
    (c) => c.id === meta.tool_call_id,
  );
  const argumentsGiven =
    call?.function.arguments ??
    Object.fromEntries(Object.entries(args).filter(([k]) => !NON_ARGUMENTS.has(k)));
  const decision = toolCallDecision(tool, argumentsGiven);
  // Several tool calls of one model response share its id: the response is one decision.
  const responseId = meta?.model_response?.id ?? undefined;
  if (responseId === undefined || responseId !== lastResponse) builder.decide(decision);
  const thought = stringArg(args, 'thought') ?? '';
  const rendered = decision.type === 'tool_call' ? `${tool}(${JSON.stringify(decision.arguments)})` : '';
  builder.add({ role: 'assistant', text: thought.length > 0 ? `${thought}\n${rendered}` : rendered });
  return responseId;
}

function readObservation(event: OpenHandsEvent, builder: TurnBuilder): void {
  const text = event.content ?? event.message ?? '';
  builder.add({
    role: 'tool',
    text,
    tool: event.tool_call_metadata?.function_name ?? event.observation ?? undefined,
  });
}

function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' ? value : undefined;
}
