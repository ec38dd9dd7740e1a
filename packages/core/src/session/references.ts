import { type Handle, handleFor, type RestoreStore } from '@distil/contract';
import { restoreBlock } from '../pipeline/restore-block.js';
import { splitEnvelope } from '../pipeline/tool-envelope.js';
import type { SentBlock } from './sent-block.js';
import type { Definition } from './source-outline.js';

/** Where an earlier occurrence sits, as references print it: `#12 (turn 3)`, both 1-based. */
export interface EarlierBlock {
  readonly position: number;
  readonly turn: number;
}

const at = (earlier: EarlierBlock): string => `#${earlier.position + 1} (turn ${earlier.turn + 1})`;

/** An exact re-send: a pointer to the earlier occurrence already in the (cached) context. */
export function exactReference(earlier: EarlierBlock, lines: number, handle: Handle): string {
  return `<< same as ${at(earlier)}: ${lines} lines unchanged, handle=${handle} >>`;
}

/**
 * A partial re-read (Read's offset/limit) of lines an earlier read already showed, unchanged: a pointer
 * to them, numbered as the file numbers them.
 */
export function rangeReference(earlier: EarlierBlock, first: number, last: number, handle: Handle): string {
  return `<< lines ${first}–${last} as in ${at(earlier)}: unchanged, handle=${handle} >>`;
}

/**
 * The first line of a diff reference; the unified diff against the earlier version follows it. For a
 * numbered read (`numbered`) the diff is of the lines without their numbers, its hunks numbered as the
 * file is.
 */
export function diffReference(
  earlier: EarlierBlock,
  handle: Handle,
  delta: string,
  numbered = false,
): string {
  const against = numbered
    ? 'unified diff against it below (line numbers as in the file)'
    : 'unified diff against it below';
  return `<< re-read of ${at(earlier)} with changes; ${against}, handle=${handle} >>\n${delta}`;
}

/** A unified diff's hunks renumbered by `by` lines (a read that starts at line `by + 1`). */
export function shiftHunks(delta: string, by: number): string {
  if (by === 0) return delta;
  return delta.replace(
    /^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@$/gm,
    (_, a: string, b: string, c: string, d: string) => `@@ -${Number(a) + by}${b} +${Number(c) + by}${d} @@`,
  );
}

/** A re-read whose top-level definitions all match the earlier version's syntax trees. */
export function astUnchangedReference(earlier: EarlierBlock, definitions: number, handle: Handle): string {
  return (
    `<< re-read of ${at(earlier)}: none of its ${definitions} top-level definitions changed ` +
    `(whitespace, comments or order only), handle=${handle} >>`
  );
}

/** A re-read as the definitions whose syntax tree changed; the rest are as in the earlier version. */
export function astDeltaReference(
  earlier: EarlierBlock,
  handle: Handle,
  later: string,
  total: number,
  changed: readonly Definition[],
  removed: readonly string[],
): string {
  let out =
    `<< re-read of ${at(earlier)}: ${changed.length} of ${total} top-level definitions changed or added, in full ` +
    `below; the others are as in ${at(earlier)}, handle=${handle} >>\n`;
  for (const d of changed) out += `${later.slice(d.start, d.end)}\n`;
  if (removed.length > 0) out += `<< removed since ${at(earlier)}: ${removed.join(', ')} >>\n`;
  return out;
}

/** The unified diff carried by a `diff` block (after its reference line, before a client's wrapper). */
export function deltaOf(sent: SentBlock): string {
  if (sent.encoding !== 'diff') throw new Error(`block #${sent.position + 1} is not a diff`);
  const header = /^<< re-read of #[^\n]*\n/m.exec(sent.text);
  if (!header) throw new Error(`block #${sent.position + 1} has no diff reference`);
  const rest = sent.text.slice(header.index + header[0].length);
  const { suffix } = splitEnvelope(sent.block.text);
  return suffix.length > 0 && rest.endsWith(suffix) ? rest.slice(0, -suffix.length) : rest;
}

/**
 * The original text of a sent block, byte for byte: folds are restored from the store, and references
 * and deltas resolve through the handle of the original they carry.
 */
export async function restoreSentBlock(sent: SentBlock, store: RestoreStore): Promise<string> {
  switch (sent.encoding) {
    case 'full':
      return sent.text;
    case 'skeleton':
      return restoreBlock(sent.text, sent.handles, store);
    case 'compressed': {
      // Folds restore from their stubs; a lossless re-encoding restores from its stored original.
      const restored = await restoreBlock(sent.text, sent.handles, store);
      return handleFor(restored) === sent.original ? restored : decode(await store.get(sent.original));
    }
    default:
      return decode(await store.get(sent.original));
  }
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
