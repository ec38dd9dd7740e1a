import { type Handle, handleFor, type RestoreStore } from '@distil/contract';
import { restoreBlock } from '../pipeline/restore-block.js';
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

/** The first line of a diff reference; the unified diff against the earlier version follows it. */
export function diffReference(earlier: EarlierBlock, handle: Handle, delta: string): string {
  return `<< re-read of ${at(earlier)} with changes; unified diff against it below, handle=${handle} >>\n${delta}`;
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

/** The unified diff carried by a `diff` block (everything after its first line). */
export function deltaOf(sent: SentBlock): string {
  if (sent.encoding !== 'diff') throw new Error(`block #${sent.position + 1} is not a diff`);
  return sent.text.slice(sent.text.indexOf('\n') + 1);
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
