/**
 * Allocation-free checks of the two Responses shapes in responses-body.ts, run on every request and
 * every reply before zod. zod 4 copies each object it validates (a loose object is rebuilt key by key),
 * so validating an 80-item input made garbage in proportion to the body on every turn, while the proxy
 * keeps the client's own parsed JSON anyway. These checks only say yes when the schema would
 * (responses-shape.test.ts holds them to the schemas on generated bodies); when they say no, the zod
 * schema decides, so it stays the definition of what the proxy accepts.
 */

type Fields = Record<string, unknown>;

/** A plain object as zod sees one: not null, not an array. */
function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `z.array(z.looseObject({}))`. */
function isRecordList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isRecord(item)) return false;
  return true;
}

/** `z.array(z.looseObject({ type: z.string() }))`. */
function isTypedList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isRecord(item) || typeof item.type !== 'string') return false;
  return true;
}

function isNullishString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isNullishBoolean(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'boolean';
}

/** Whether `ResponsesBody` accepts `json` (true only when it does). */
export function looksLikeResponsesBody(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { model, input, instructions, tools, stream, store, previous_response_id } = json;
  if (typeof model !== 'string' || model.length === 0) return false;
  if (input !== undefined && typeof input !== 'string' && !isRecordList(input)) return false;
  if (tools !== undefined && !isTypedList(tools)) return false;
  return (
    isNullishString(instructions) &&
    isNullishBoolean(stream) &&
    isNullishBoolean(store) &&
    isNullishString(previous_response_id)
  );
}

/** Whether `ResponseObject` accepts `json` (true only when it does). */
export function looksLikeResponseObject(json: unknown): boolean {
  return (
    isRecord(json) && typeof json.id === 'string' && json.object === 'response' && isRecordList(json.output)
  );
}
