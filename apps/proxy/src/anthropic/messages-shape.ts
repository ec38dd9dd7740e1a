/**
 * Allocation-free checks of the two shapes in messages-body.ts, run on every request and every reply
 * before zod. zod 4 copies each object it validates (a loose object is rebuilt key by key, with a result
 * record per field): for a 200 KB, 80-message request that was ~105 KB of garbage and ~25 µs per request
 * here, a third of everything the proxy allocated on a warm turn, thrown away because the proxy keeps the
 * client's own parsed JSON. These checks only say yes when the schema would (messages-shape.test.ts
 * holds them to the schema on generated bodies); when they say no, the zod schema decides, so it stays
 * the definition of what the proxy accepts and the source of its errors.
 */

type Fields = Record<string, unknown>;

/** A plain object as zod sees one: not null, not an array. */
function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `z.looseObject({ type: z.string() })`. */
function isPart(value: unknown): boolean {
  return isRecord(value) && typeof value.type === 'string';
}

function isPartList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const part of value) if (!isPart(part)) return false;
  return true;
}

/** `z.union([z.string(), z.array(Part)])`. */
function isContent(value: unknown): boolean {
  return typeof value === 'string' || isPartList(value);
}

/** `z.looseObject({ role: z.string(), content: Content })`. */
function isMessage(value: unknown): boolean {
  return isRecord(value) && typeof value.role === 'string' && isContent(value.content);
}

function isTool(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { name, type } = value;
  return (name === undefined || typeof name === 'string') && (type === undefined || typeof type === 'string');
}

/** Whether `MessagesBody` accepts `json` (true only when it does). */
export function looksLikeMessagesBody(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { model, messages, system, tools, stream } = json;
  if (typeof model !== 'string' || model.length === 0) return false;
  if (!Array.isArray(messages)) return false;
  for (const message of messages) if (!isMessage(message)) return false;
  if (system !== undefined && !isContent(system)) return false;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return false;
    for (const tool of tools) if (!isTool(tool)) return false;
  }
  return stream === undefined || typeof stream === 'boolean';
}

/** Whether `ResponseMessage` accepts `json` (true only when it does). */
export function looksLikeResponseMessage(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { type, content, usage } = json;
  return type === 'message' && isPartList(content) && (usage === undefined || isRecord(usage));
}
