import type { JsonPath } from '../json/json-scan.js';

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Receives one rewritable string a reader found: the object holding it, its key, and its path in the
 * request. The caller decides whose output it is and whether it may be written.
 */
export type FoundText = (holder: Fields, key: string, path: JsonPath) => void;

/** A content part type whose text Distil may compress, and the role of the messages it appears in. */
export interface PartReader {
  readonly role: 'user' | 'assistant';
  /** Reports every rewritable string inside `part` (at `path`) to `found`. */
  readonly read: (part: Fields, path: JsonPath, found: FoundText) => void;
}

function found1(holder: Fields, key: string, path: JsonPath, found: FoundText): void {
  if (typeof holder[key] === 'string') found(holder, key, path);
}

/**
 * Whether citations may point into a block's text: a document or search result that enables them
 * (`citations.enabled`), or a text part that carries some. Their locations index into the exact text
 * (character ranges, cited_text), so such text is never rewritten.
 */
function cited(part: Fields): boolean {
  const { citations } = part;
  if (Array.isArray(citations)) return citations.length > 0;
  return isRecord(citations) && citations.enabled === true;
}

function readText(part: Fields, path: JsonPath, found: FoundText): void {
  if (!cited(part)) found1(part, 'text', [...path, 'text'], found);
}

/** Text parts of a list, each at `path`/i/text; every other part type is left alone. */
function readTextParts(list: unknown, path: JsonPath, found: FoundText): void {
  if (!Array.isArray(list)) return;
  list.forEach((part, i) => {
    if (isRecord(part) && part.type === 'text') readText(part, [...path, i], found);
  });
}

/**
 * A document's text: a plain-text source (`source.data`) or a content source (a string, or text parts).
 * PDFs, URLs and file references are bytes the proxy does not read; a document with citations enabled
 * is never rewritten.
 */
function readDocument(document: Fields, path: JsonPath, found: FoundText): void {
  const { source } = document;
  if (cited(document) || !isRecord(source)) return;
  if (source.type === 'text') found1(source, 'data', [...path, 'source', 'data'], found);
  else if (source.type === 'content') {
    if (typeof source.content === 'string') found(source, 'content', [...path, 'source', 'content']);
    else readTextParts(source.content, [...path, 'source', 'content'], found);
  }
}

/** A search result's text parts (its source and title stay), unless citations are enabled. */
function readSearchResult(result: Fields, path: JsonPath, found: FoundText): void {
  if (!cited(result)) readTextParts(result.content, [...path, 'content'], found);
}

/** Parts inside a tool result's content list that carry text; images and unknown parts stay as they are. */
const INNER_READERS: ReadonlyMap<string, (part: Fields, path: JsonPath, found: FoundText) => void> = new Map([
  ['text', readText],
  ['document', readDocument],
  ['search_result', readSearchResult],
]);

/** A tool result's `content`: a string, or a list mixing text, image, document and search_result parts. */
function readToolContent(part: Fields, path: JsonPath, found: FoundText): void {
  const { content } = part;
  if (typeof content === 'string') {
    found(part, 'content', [...path, 'content']);
    return;
  }
  if (!Array.isArray(content)) return;
  for (let i = 0; i < content.length; i++) {
    const inner: unknown = content[i];
    const reader =
      isRecord(inner) && typeof inner.type === 'string' ? INNER_READERS.get(inner.type) : undefined;
    reader?.(inner as Fields, [...path, 'content', i], found);
  }
}

/** A server code-execution result (`stdout`, `stderr`) of the given result type. */
function readExecution(resultType: string): PartReader['read'] {
  return (part, path, found) => {
    const { content } = part;
    if (!isRecord(content) || content.type !== resultType) return;
    found1(content, 'stdout', [...path, 'content', 'stdout'], found);
    found1(content, 'stderr', [...path, 'content', 'stderr'], found);
  };
}

/**
 * The part types whose text Distil compresses, by type (a table, not a switch: a new shape is one entry).
 * `tool_result` answers the agent's own tools; `mcp_tool_result` and the server tool results (web fetch,
 * code execution, the text editor's file views) come back inside assistant messages and are re-sent by
 * the client like any other history; `document` and `search_result` may also stand at the top level of a
 * user message. Web search results are absent on purpose — their content is encrypted — and so are
 * thinking, redacted thinking, compaction blocks and every part type not listed: never read or written.
 */
export const PART_READERS: ReadonlyMap<string, PartReader> = new Map<string, PartReader>([
  ['tool_result', { role: 'user', read: readToolContent }],
  ['mcp_tool_result', { role: 'assistant', read: readToolContent }],
  [
    'web_fetch_tool_result',
    {
      role: 'assistant',
      read: (part, path, found) => {
        const { content } = part;
        if (!isRecord(content) || content.type !== 'web_fetch_result' || !isRecord(content.content)) return;
        if (content.content.type === 'document')
          readDocument(content.content, [...path, 'content', 'content'], found);
      },
    },
  ],
  ['code_execution_tool_result', { role: 'assistant', read: readExecution('code_execution_result') }],
  [
    'bash_code_execution_tool_result',
    { role: 'assistant', read: readExecution('bash_code_execution_result') },
  ],
  [
    'text_editor_code_execution_tool_result',
    {
      role: 'assistant',
      read: (part, path, found) => {
        const { content } = part;
        if (isRecord(content) && content.type === 'text_editor_code_execution_view_result')
          found1(content, 'content', [...path, 'content', 'content'], found);
      },
    },
  ],
  ['document', { role: 'user', read: readDocument }],
  ['search_result', { role: 'user', read: readSearchResult }],
]);

/** Part types that are the agent's calls: their ids name the tool whose result answers them. */
export const CALL_PARTS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Every place in a Messages request where PART_READERS may find text, for the byte-range scan (so a
 * rewrite is spliced into the client's bytes instead of re-serialising the body). Keep in step with the
 * readers above; a path missing here costs only speed, never correctness.
 */
export const MESSAGES_TEXT_PATHS: readonly (readonly string[])[] = [
  // tool_result / mcp_tool_result content as a string, and text parts inside it
  ['messages', '*', 'content', '*', 'content'],
  ['messages', '*', 'content', '*', 'content', '*', 'text'],
  // documents and search results inside a tool result
  ['messages', '*', 'content', '*', 'content', '*', 'source', 'data'],
  ['messages', '*', 'content', '*', 'content', '*', 'source', 'content'],
  ['messages', '*', 'content', '*', 'content', '*', 'source', 'content', '*', 'text'],
  ['messages', '*', 'content', '*', 'content', '*', 'content', '*', 'text'],
  // top-level documents (top-level search results share the text-part path above)
  ['messages', '*', 'content', '*', 'source', 'data'],
  ['messages', '*', 'content', '*', 'source', 'content'],
  ['messages', '*', 'content', '*', 'source', 'content', '*', 'text'],
  // server tool results: web fetch document, code execution output, text editor file view
  ['messages', '*', 'content', '*', 'content', 'content', 'source', 'data'],
  ['messages', '*', 'content', '*', 'content', 'stdout'],
  ['messages', '*', 'content', '*', 'content', 'stderr'],
  ['messages', '*', 'content', '*', 'content', 'content'],
];
