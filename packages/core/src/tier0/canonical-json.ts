import { type JsonMember, type JsonNode, parseJsonTree } from './json-tree.js';

/**
 * Schema canonicalisation (spec: cache stabilisation): a JSON block is rewritten with every object's keys
 * sorted, so two payloads that differ only in key order become the same bytes and the prompt-cache prefix
 * stays stable turn over turn.
 *
 * Values are byte-preserved: numbers keep their spelling (`1.50`, `1e3`, `-0`), strings their escapes
 * (`"\u00e9"` stays `"\u00e9"`), which `JSON.parse` + `JSON.stringify` would not do — see json-tree.ts.
 * Keys sort by their decoded value in UTF-16 code-unit order, as in the JSON Canonicalization Scheme
 * (RFC 8785 §3.2.3); equal keys (a duplicate) keep their order, so nothing is dropped.
 *
 * Layout: one member or item per line with a one-space indent per level, arrays and objects of scalars that
 * fit in 100 characters on one line. Fully compact JSON saves a few more tokens but puts a large payload
 * on a single line, which the line-level tiers after tier 0 cannot fold or guard; two-space indentation
 * costs about one token per line more than one-space in o200k for no gain in readability.
 */

/** Canonical form options. */
export interface CanonicalJsonOptions {
  /** `lines` (default): one member per line, short scalar containers inline. `compact`: no whitespace. */
  readonly layout?: 'lines' | 'compact';
}

/** Inputs larger than this are left alone (a parse tree costs several times the text). */
export const CANONICAL_JSON_MAX_CHARS = 32 * 1024 * 1024;

/** The canonical form of `text` when the whole text is one JSON value, else `null`. */
export function canonicalJson(text: string, options: CanonicalJsonOptions = {}): string | null {
  const tree = jsonTreeOf(text);
  if (tree === null) return null;
  return options.layout === 'compact' ? compactJson(tree) : linesJson(tree);
}

/** Parses `text` as one JSON value (raw spellings kept), or `null` when it is not exactly that. */
export function jsonTreeOf(text: string): JsonNode | null {
  if (text.length === 0 || text.length > CANONICAL_JSON_MAX_CHARS) return null;
  const first = firstNonSpace(text);
  // Cheap rejection before a parse: a JSON document starts with one of `{ [ " - 0-9 t f n`.
  if (first < 0 || !'{["-0123456789tfn'.includes(text[first]!)) return null;
  try {
    return parseJsonTree(text);
  } catch {
    return null;
  }
}

function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
  }
  return -1;
}

/** Members sorted by decoded key, UTF-16 code-unit order, stable for duplicates. */
export function sortedMembers(members: readonly JsonMember[]): JsonMember[] {
  return members
    .map((m, i) => ({ m, i }))
    .sort((a, b) => (a.m.key < b.m.key ? -1 : a.m.key > b.m.key ? 1 : a.i - b.i))
    .map((x) => x.m);
}

/** Compact canonical JSON (no whitespace) of a tree. */
export function compactJson(node: JsonNode): string {
  const out: string[] = [];
  writeCompact(node, out);
  return out.join('');
}

function writeCompact(node: JsonNode, out: string[]): void {
  if (node.type === 'scalar') {
    out.push(node.raw);
    return;
  }
  if (node.type === 'array') {
    out.push('[');
    node.items.forEach((item, i) => {
      if (i > 0) out.push(',');
      writeCompact(item, out);
    });
    out.push(']');
    return;
  }
  out.push('{');
  sortedMembers(node.members).forEach((m, i) => {
    if (i > 0) out.push(',');
    out.push(m.rawKey, ':');
    writeCompact(m.value, out);
  });
  out.push('}');
}

const INLINE_WIDTH = 100;

/** Canonical JSON in the `lines` layout. */
export function linesJson(node: JsonNode): string {
  const out: string[] = [];
  writeLines(node, '', out);
  return out.join('');
}

function isFlat(node: JsonNode): boolean {
  if (node.type === 'scalar') return true;
  if (node.type === 'array') return node.items.every((i) => i.type === 'scalar');
  return node.members.every((m) => m.value.type === 'scalar');
}

function writeLines(node: JsonNode, indent: string, out: string[]): void {
  if (node.type === 'scalar') {
    out.push(node.raw);
    return;
  }
  const empty = node.type === 'array' ? node.items.length === 0 : node.members.length === 0;
  if (empty) {
    out.push(node.type === 'array' ? '[]' : '{}');
    return;
  }
  if (isFlat(node)) {
    const inline = compactJson(node);
    if (inline.length + indent.length <= INLINE_WIDTH) {
      out.push(inline);
      return;
    }
  }
  const inner = `${indent} `;
  if (node.type === 'array') {
    out.push('[\n');
    node.items.forEach((item, i) => {
      out.push(inner);
      writeLines(item, inner, out);
      out.push(i < node.items.length - 1 ? ',\n' : '\n');
    });
    out.push(indent, ']');
    return;
  }
  const members = sortedMembers(node.members);
  out.push('{\n');
  members.forEach((m, i) => {
    out.push(inner, m.rawKey, ': ');
    writeLines(m.value, inner, out);
    out.push(i < members.length - 1 ? ',\n' : '\n');
  });
  out.push(indent, '}');
}
