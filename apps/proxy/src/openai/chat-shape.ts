/**
 * Allocation-free checks of the two Chat Completions shapes in chat-body.ts, run on every request and
 * every reply before zod. zod 4 copies each object it validates (a loose object is rebuilt key by key),
 * so validating an 80-message request made garbage in proportion to the body on every turn, while the
 * proxy keeps the client's own parsed JSON anyway. These checks only say yes when the schema would
 * (chat-shape.test.ts holds them to the schemas on generated bodies); when they say no, the zod schema
 * decides, so it stays the definition of what the proxy accepts.
 */

type Fields = Record<string, unknown>;

/** A plain object as zod sees one: not null, not an array. */
function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `z.string().nullish()`. */
function isNullishString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/** `z.looseObject({ type: z.string() })`. */
function isTyped(value: unknown): boolean {
  return isRecord(value) && typeof value.type === 'string';
}

function isTypedList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isTyped(item)) return false;
  return true;
}

/** `z.union([z.string(), z.array(Part), z.null()]).optional()`. */
function isContent(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string' || isTypedList(value);
}

/** `z.looseObject({ id: z.string(), function: z.looseObject({ name: z.string(), arguments: z.unknown() }) })`. */
function isToolCall(value: unknown): boolean {
  if (!isRecord(value) || typeof value.id !== 'string') return false;
  const fn = value.function;
  // zod 4 requires the key of a `z.unknown()` field to be present, whatever its value.
  return isRecord(fn) && typeof fn.name === 'string' && 'arguments' in fn;
}

/** The `tool_calls` field: nullish, or a list of tool calls. */
function isToolCalls(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!Array.isArray(value)) return false;
  for (const call of value) if (!isToolCall(call)) return false;
  return true;
}

function isMessage(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (
    typeof value.role === 'string' &&
    isContent(value.content) &&
    isToolCalls(value.tool_calls) &&
    isNullishString(value.tool_call_id)
  );
}

/** Whether `ChatBody` accepts `json` (true only when it does). */
export function looksLikeChatBody(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { model, messages, tools, stream, n } = json;
  if (typeof model !== 'string' || model.length === 0) return false;
  if (!Array.isArray(messages)) return false;
  for (const message of messages) if (!isMessage(message)) return false;
  if (tools !== undefined && !isTypedList(tools)) return false;
  if (!(stream === undefined || stream === null || typeof stream === 'boolean')) return false;
  // `z.number().int()` takes safe integers only.
  return n === undefined || n === null || Number.isSafeInteger(n);
}

function isChoice(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { message } = value;
  return isRecord(message) && typeof message.role === 'string' && isNullishString(value.finish_reason);
}

/** Whether `ChatCompletion` accepts `json` (true only when it does). */
export function looksLikeChatCompletion(json: unknown): boolean {
  if (!isRecord(json) || json.object !== 'chat.completion') return false;
  const { choices } = json;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) if (!isChoice(choice)) return false;
  return true;
}
