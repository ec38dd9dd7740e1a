import type { JsonPath } from '../json/json-scan.js';
import type { ResponseItem } from './responses-body.js';

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Receives one rewritable string found in an item: the object holding it, its key, and its path. */
export type FoundText = (holder: Fields, key: string, path: JsonPath) => void;

function found1(holder: Fields, key: string, path: JsonPath, found: FoundText): void {
  if (typeof holder[key] === 'string') found(holder, key, path);
}

/** An `output` that is a string, or a list of input_text / input_image / input_file parts (text only read). */
function readOutput(item: ResponseItem, path: JsonPath, found: FoundText): void {
  const { output } = item;
  if (typeof output === 'string') {
    found(item, 'output', [...path, 'output']);
    return;
  }
  if (!Array.isArray(output)) return;
  output.forEach((part, p) => {
    if (isRecord(part) && part.type === 'input_text')
      found1(part, 'text', [...path, 'output', p, 'text'], found);
  });
}

/** A shell tool's output: chunks of `stdout` and `stderr`, each with its outcome (left as it is). */
function readShellOutput(item: ResponseItem, path: JsonPath, found: FoundText): void {
  const { output } = item;
  if (!Array.isArray(output)) return;
  output.forEach((chunk, c) => {
    if (!isRecord(chunk)) return;
    found1(chunk, 'stdout', [...path, 'output', c, 'stdout'], found);
    found1(chunk, 'stderr', [...path, 'output', c, 'stderr'], found);
  });
}

/** An item type that carries a tool's result: how to find its text, and the tool when the item names none. */
export interface OutputReader {
  readonly read: (item: ResponseItem, path: JsonPath, found: FoundText) => void;
  /** The tool of a built-in call, whose call items carry no name. */
  readonly tool?: string;
}

/**
 * The Responses item types whose text Distil compresses: the outputs of the client's function and custom
 * tools, and of the built-in local shell, shell and apply_patch tools. Every other item type — messages,
 * reasoning with its encrypted content, compaction items, item references, server tool calls and types
 * newer than the proxy — is never written.
 */
export const OUTPUT_READERS: ReadonlyMap<string, OutputReader> = new Map<string, OutputReader>([
  ['function_call_output', { read: readOutput }],
  ['custom_tool_call_output', { read: readOutput }],
  ['local_shell_call_output', { read: readOutput, tool: 'local_shell' }],
  ['shell_call_output', { read: readShellOutput, tool: 'shell' }],
  ['apply_patch_call_output', { read: readOutput, tool: 'apply_patch' }],
]);

/** How a call item names its tool, and what it asked for (a trusted text: what the agent did). */
interface CallReader {
  readonly name: (item: ResponseItem) => string | undefined;
  readonly input: (item: ResponseItem) => string;
}

const stringOf = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
const named = (item: ResponseItem): string | undefined =>
  typeof item.name === 'string' ? item.name : undefined;
const action = (item: ResponseItem): Fields => (isRecord(item.action) ? item.action : {});

/** The agent's call items, by type. */
export const CALL_READERS: ReadonlyMap<string, CallReader> = new Map<string, CallReader>([
  ['function_call', { name: named, input: (item) => stringOf(item.arguments) }],
  ['custom_tool_call', { name: named, input: (item) => stringOf(item.input) }],
  ['local_shell_call', { name: () => 'local_shell', input: (item) => stringOf(action(item).command) }],
  ['shell_call', { name: () => 'shell', input: (item) => stringOf(action(item).commands) }],
  [
    'apply_patch_call',
    {
      name: () => 'apply_patch',
      input: (item) => {
        const operation = isRecord(item.operation) ? item.operation : {};
        return stringOf(operation.diff ?? operation.path);
      },
    },
  ],
  ['mcp_call', { name: named, input: (item) => stringOf(item.arguments) }],
]);

/**
 * Item types that carry a compaction (the `compaction` item of /v1/responses/compact and of server-side
 * compaction, under its older name too). The newest one holds everything the model keeps of what came
 * before it, and the API does not read the items that precede it, so neither does Distil.
 */
const COMPACTION_ITEMS: ReadonlySet<string> = new Set([
  'compaction',
  'compaction_summary',
  'context_compaction',
]);

/** Whether an item is a compaction that replaces the history before it (one with its opaque content). */
export function isCompactionItem(item: ResponseItem): boolean {
  return (
    typeof item.type === 'string' &&
    COMPACTION_ITEMS.has(item.type) &&
    typeof item.encrypted_content === 'string'
  );
}

/**
 * Every place where OUTPUT_READERS may find text, for the byte-range scan; a path missing here costs
 * only speed (the body is then re-serialised), never correctness.
 */
export const RESPONSES_TEXT_PATHS: readonly (readonly string[])[] = [
  ['input', '*', 'output'],
  ['input', '*', 'output', '*', 'text'],
  ['input', '*', 'output', '*', 'stdout'],
  ['input', '*', 'output', '*', 'stderr'],
];
