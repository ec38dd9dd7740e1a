/**
 * A tool output a client sends as a JSON object whose one string field carries the tool's text:
 * Codex's `{"output":"…","metadata":{"exit_code":0,…}}`, an MCP server's `{"stdout":"…"}`. Read as
 * JSON it is a single line, so nothing in it could fold; what it says is in the string. `body` is the
 * text the field's JSON string encodes; `prefix` and `suffix` are every other byte, as they came.
 */
export interface JsonEnvelope {
  readonly prefix: string;
  readonly body: string;
  readonly suffix: string;
}

/** The field must carry most of the bytes: otherwise the object is data, and the JSON tier's to encode. */
const MIN_SHARE = 0.5;

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The envelope of `text`, or null. Only when the object is valid JSON, its longest top-level string
 * holds at least half of the bytes over several lines, and writing that text back with JSON.stringify
 * gives the very bytes it came as — so a compressed field written the same way restores exactly.
 */
export function splitJsonEnvelope(text: string): JsonEnvelope | null {
  if (text.charCodeAt(0) !== 123 /* { */ || !text.includes('\\n') || !isJsonObject(text)) return null;
  let longest: Span | null = null;
  for (const span of topLevelStrings(text))
    if (longest === null || span.end - span.start > longest.end - longest.start) longest = span;
  if (longest === null || longest.end - longest.start < MIN_SHARE * text.length) return null;
  const body = exactString(text, longest);
  if (body === null || !body.includes('\n')) return null;
  return { prefix: text.slice(0, longest.start), body, suffix: text.slice(longest.end) };
}

/** `envelope` with its field's text replaced by `body`, written as JSON. */
export function joinJsonEnvelope(envelope: JsonEnvelope, body: string): string {
  return envelope.prefix + JSON.stringify(body) + envelope.suffix;
}

/**
 * `text` (a JSON object) with each top-level string field that `restore` maps to new text rewritten as
 * JSON, or null when it maps none (or `text` is not a JSON object).
 */
export async function mapJsonFields(
  text: string,
  restore: (body: string) => Promise<string | null>,
): Promise<string | null> {
  if (text.charCodeAt(0) !== 123 /* { */ || !isJsonObject(text)) return null;
  let out = '';
  let cursor = 0;
  for (const span of topLevelStrings(text)) {
    const body = exactString(text, span);
    const restored = body === null ? null : await restore(body);
    if (restored === null) continue;
    out += text.slice(cursor, span.start) + JSON.stringify(restored);
    cursor = span.end;
  }
  return cursor === 0 ? null : out + text.slice(cursor);
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The text a JSON string literal encodes, when JSON.stringify writes that text back byte for byte. */
function exactString(text: string, span: Span): string | null {
  const literal = text.slice(span.start, span.end);
  const body = JSON.parse(literal) as string;
  return JSON.stringify(body) === literal ? body : null;
}

/**
 * The spans (quotes included) of the string values directly inside the top-level object of `text`, a
 * valid JSON object, in one pass that tracks nesting and string state: JSON.parse gives the values, not
 * where they stand.
 */
function topLevelStrings(text: string): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let afterColon = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i++;
      while (text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 /* \ */ ? 2 : 1;
      if (depth === 1 && afterColon) spans.push({ start, end: i + 1 });
      afterColon = false;
    } else if (c === 123 || c === 91 /* { [ */) {
      depth++;
      afterColon = false;
    } else if (c === 125 || c === 93 /* } ] */) depth--;
    else if (c === 58 /* : */) afterColon = true;
    else if (c === 44 /* , */) afterColon = false;
  }
  return spans;
}
