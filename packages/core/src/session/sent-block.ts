import type { Block, Handle } from '@distil/contract';

/**
 * How a block went out:
 * - `full`: its own bytes, unchanged (short, sticky, or nothing to gain);
 * - `compressed`: the block compressor's output (tier 0 re-encoding or a tier 1 digest);
 * - `skeleton`: a large source file as imports, signatures and doc comments, bodies folded behind handles;
 * - `reference`: an exact re-send, as a pointer to its earlier occurrence;
 * - `diff`: a near-duplicate re-read, as a pointer plus a unified diff against the earlier version;
 * - `ast-delta`: a re-read of source, as a pointer plus the top-level definitions that changed;
 * - `ast-unchanged`: a re-read whose top-level definitions are all unchanged (formatting/comments only).
 */
export type SentEncoding =
  | 'full'
  | 'compressed'
  | 'skeleton'
  | 'reference'
  | 'diff'
  | 'ast-delta'
  | 'ast-unchanged';

/** One block as the session sent it. Its `text` never changes once sent (prefix stability). */
export interface SentBlock {
  /** The block as the agent produced it. */
  readonly block: Block;
  /** The bytes sent in its place, identical in every later request. */
  readonly text: string;
  readonly encoding: SentEncoding;
  /** Handles the text mentions that Distil issued (folds, and the original of a reference or delta). */
  readonly handles: readonly Handle[];
  /** Content address of the original text; for references and deltas it is stored in the RestoreStore. */
  readonly original: Handle;
  /** Position in the session's context (0-based); references print it 1-based as `#n`. */
  readonly position: number;
  /** The turn that first sent it (0-based). */
  readonly turn: number;
  /** For references and deltas: the position of the earlier block it points to. */
  readonly refersTo?: number;
}
