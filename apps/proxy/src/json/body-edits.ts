import type { DialectTools } from '../expand/distil-tools.js';
import type { JsonPath, ScannedJson } from './json-scan.js';

/** Turns a text into its JSON string literal's bytes (LiteralCache remembers them across requests). */
export interface LiteralEncoder {
  encode(text: string): Buffer;
}

const PLAIN: LiteralEncoder = { encode: (text) => Buffer.from(JSON.stringify(text)) };

/** A string value of the request written over (a tool result compressed): where it is, and its text. */
export interface StringEdit {
  /** Its path in the body; undefined when the adapter cannot say (then the body is re-serialised). */
  readonly path: JsonPath | undefined;
  readonly text: string;
}

/** What a route changed in a parsed request body, for `encodeBody`. */
export interface BodyChanges {
  readonly strings: readonly StringEdit[];
  /**
   * Items appended to a top-level array (the distil tools), as serialised JSON values joined by commas;
   * when the body has no such key, the array is added as the object's last key — where assigning the
   * property to the parsed object puts it.
   */
  readonly append?: { readonly key: string; readonly items: string };
  /** Anything else changed (history spliced in, items moved): the body is re-serialised. */
  readonly restructured: boolean;
}

/** Bytes `[start, end)` of the client's body replaced by `bytes`. */
export interface ByteEdit {
  readonly start: number;
  readonly end: number;
  readonly bytes: Buffer;
}

/**
 * The bytes to send for a request whose parsed `value` was changed as `changes` says. When the body was
 * canonical JSON (see ScannedJson) the changed values are spliced into the client's own bytes — a 200 KB
 * body costs a few small copies instead of JSON.stringify and a string-to-bytes conversion of the whole,
 * ~0.35 ms here — and the result equals `JSON.stringify(value)` byte for byte, which is what goes out
 * otherwise. Either way the same request always gives the same bytes, so the cached prefix holds.
 */
export function encodeBody(
  raw: Buffer,
  scanned: ScannedJson | null,
  value: unknown,
  changes: BodyChanges,
  literals: LiteralEncoder = PLAIN,
): Buffer | string {
  return editedBody(raw, scanned, value, changes, literals).body;
}

/** {@link encodeBody}, with the byte edits it spliced in (null when it re-serialised). */
function editedBody(
  raw: Buffer,
  scanned: ScannedJson | null,
  value: unknown,
  changes: BodyChanges,
  literals: LiteralEncoder,
): { readonly body: Buffer | string; readonly edits: readonly ByteEdit[] | null } {
  const edits =
    scanned?.canonical && !changes.restructured ? byteEdits(raw, scanned, changes, literals) : null;
  return edits ? { body: spliceBytes(raw, edits), edits } : { body: JSON.stringify(value), edits: null };
}

/** What a provider route did to a parsed request. */
export interface RouteChanges {
  /** Texts the session rewrote (compressed tool results). */
  readonly rewrites: readonly StringEdit[];
  /** The distil tools, when the route appended them to `tools`. */
  readonly tools: DialectTools | null;
  /** Whether remembered exchanges were spliced into the history. */
  readonly spliced: boolean;
}

/** The bytes a provider route sends, and how they came from the client's (see requestBytes). */
export interface RequestBytes {
  readonly body: Buffer | string;
  readonly rewritten: boolean;
  /** The byte edits that made `body` from the client's bytes ([] when unchanged); null when re-serialised. */
  readonly edits: readonly ByteEdit[] | null;
}

/**
 * The bytes a provider route sends upstream: the client's own when it changed nothing, else encodeBody's.
 * `rewritten` says which (a rewritten body needs its framing headers recomputed).
 */
export function requestBytes(
  raw: Buffer,
  scanned: ScannedJson | null,
  request: unknown,
  changes: RouteChanges,
  literals: LiteralEncoder = PLAIN,
): RequestBytes {
  const rewritten = changes.spliced || changes.rewrites.length > 0 || changes.tools !== null;
  if (!rewritten) return { body: raw, rewritten, edits: [] };
  const { body, edits } = editedBody(
    raw,
    scanned,
    request,
    {
      strings: changes.rewrites,
      ...(changes.tools ? { append: { key: 'tools', items: changes.tools.json } } : {}),
      restructured: changes.spliced,
    },
    literals,
  );
  return { body, rewritten, edits };
}

/**
 * Where byte `at` of the client's body lands in the body `edits` made of it; -1 when an edit covers it
 * (a position strictly inside a replaced range has no counterpart).
 */
export function editedOffset(edits: readonly ByteEdit[], at: number): number {
  let shift = 0;
  for (const edit of edits) {
    if (edit.start >= at) break;
    if (edit.end > at) return -1;
    shift += edit.bytes.length - (edit.end - edit.start);
  }
  return at + shift;
}

function byteEdits(
  raw: Buffer,
  scanned: ScannedJson,
  changes: BodyChanges,
  literals: LiteralEncoder,
): ByteEdit[] | null {
  const edits: ByteEdit[] = [];
  for (const edit of changes.strings) {
    const range = edit.path && scanned.rangeOf(edit.path);
    if (!range || raw[range.start] !== 0x22) return null;
    edits.push({ start: range.start, end: range.end, bytes: literals.encode(edit.text) });
  }
  if (changes.append) {
    const { key, items } = changes.append;
    const range = scanned.rangeOf([key]);
    if (range) {
      if (raw[range.start] !== 0x5b) return null;
      const empty = range.end - range.start === 2;
      const bytes = appendedBytes(items, !empty);
      edits.push({ start: range.end - 1, end: range.end - 1, bytes });
    } else {
      if (raw[0] !== 0x7b) return null;
      const empty = raw.length === 2;
      const member = `${JSON.stringify(key)}:[${items}]`;
      const bytes = Buffer.from(empty ? member : `,${member}`);
      edits.push({ start: raw.length - 1, end: raw.length - 1, bytes });
    }
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < edits.length; i++) if (edits[i]!.start < edits[i - 1]!.end) return null;
  return edits;
}

/**
 * The bytes of appended items (the distil tools of each dialect, with or without a leading comma): a few
 * fixed strings, converted once rather than on every request of an agent.
 */
const appended = new Map<string, { readonly alone: Buffer; readonly after: Buffer }>();
export function appendedBytes(items: string, afterOthers: boolean): Buffer {
  let bytes = appended.get(items);
  if (!bytes) {
    bytes = { alone: Buffer.from(items), after: Buffer.from(`,${items}`) };
    if (appended.size < 16) appended.set(items, bytes);
  }
  return afterOthers ? bytes.after : bytes.alone;
}

/** `raw` with each edit's byte range replaced by its bytes; edits sorted and disjoint. */
export function spliceBytes(raw: Buffer, edits: readonly ByteEdit[]): Buffer {
  let size = raw.length;
  for (const edit of edits) size += edit.bytes.length - (edit.end - edit.start);
  const out = Buffer.allocUnsafe(size);
  let from = 0;
  let to = 0;
  for (const edit of edits) {
    to += raw.copy(out, to, from, edit.start);
    to += edit.bytes.copy(out, to);
    from = edit.end;
  }
  raw.copy(out, to, from, raw.length);
  return out;
}
