import {
  type Block,
  type ContentKind,
  type Handle,
  HandleCollisionError,
  type KeepModel,
  type RestoreStore,
  type TierConfig,
} from '@distil/contract';
import { guardLines } from '../guard/guard-lines.js';
import { analysisView } from '../guard/terminal-codes.js';
import { foldRuns } from '../tier1/fold.js';
import { fixedLines, selectLines } from '../tier1/select-lines.js';
import { containsStubSyntax } from '../tier1/stub.js';
import { looksBinary } from './binary.js';
import { splitSegments } from './lines.js';

/** What compressing one block needs. Nothing here is shared between blocks except the read-only parts. */
export interface CompressOptions {
  readonly keepModel: KeepModel;
  readonly store: RestoreStore;
  readonly tiers: TierConfig;
  /** Tokens the trusted side of the conversation names (see collectAnchors); guarded when mentioned. */
  readonly anchors?: ReadonlySet<string>;
  /** `digest` (default) folds behind handles; `lossless` stops after tier 0. */
  readonly depth?: 'lossless' | 'digest';
}

/** Which tier changed the block: none, lossless re-encoding only, or a reversible digest. */
export type CompressionTier = 'none' | 'lossless' | 'digest';

/** One block after compression. `handles` lists every handle the text mentions that Distil issued. */
export interface CompressedBlock {
  readonly text: string;
  readonly handles: Handle[];
  readonly tier: CompressionTier;
  readonly kind: ContentKind;
  /** Why the block was left alone, when it was (binary, too short, stub syntax in the input). */
  readonly note?: string;
}

/**
 * Kinds whose lines can be folded independently. Source is digested by the session layer's skeleton
 * (definitions kept, bodies folded) and JSON by the lossless columnar form, never line by line.
 */
const FOLDABLE_KINDS: ReadonlySet<ContentKind> = new Set(['tool_output', 'log', 'diff', 'doc', 'chat']);

const unchanged = (block: Block, note: string): CompressedBlock => ({
  text: block.text,
  handles: [],
  tier: 'none',
  kind: block.kind,
  note,
});

/**
 * Compresses one block, deterministically and from its own text alone: the same block gives the same
 * bytes whatever other blocks exist (spec/threat-model.txt: no shared budget). Tier 1 keeps head, tail,
 * verdicts, guarded lines and lines the KeepModel scores high, and folds the rest behind stubs whose
 * handles return the exact bytes.
 */
export async function compressBlock(block: Block, options: CompressOptions): Promise<CompressedBlock> {
  const { text, kind } = block;
  if (text.length === 0) return unchanged(block, 'empty');
  if (looksBinary(text)) return unchanged(block, 'binary or not UTF-8 text: passed through');
  // A block that already prints stub syntax could make a restore substitute the wrong span; it is
  // passed through whole (a denial of savings, never a wrong expansion).
  if (containsStubSyntax(text)) return unchanged(block, 'contains stub syntax: passed through');
  if (options.depth === 'lossless') return unchanged(block, 'lossless tier left it unchanged');

  if (!FOLDABLE_KINDS.has(kind)) return unchanged(block, `${kind} is not folded line by line`);
  const { segments, lines: raw } = splitSegments(text);
  if (raw.length < options.tiers.minLines) return unchanged(block, 'short block');
  const lines = raw.map(analysisView);
  const guard = guardLines(lines, { kind, anchors: options.anchors });
  const fixed = fixedLines(lines, guard, options.tiers);
  const scores = await scoreUndecided(options.keepModel, lines, kind, guard, fixed);
  const keep = selectLines({ lines, guard, fixed, scores }, options.tiers);
  // The store refuses a short-handle collision (an attacker can engineer one in ~2^24 hashes); the block
  // then goes out whole — a denial of savings, never a failed request or a wrong expansion.
  const folded = await foldRuns(segments, keep, options.store).catch((error: unknown) => {
    if (error instanceof HandleCollisionError) return null;
    throw error;
  });
  if (folded === null) return unchanged(block, 'short-handle collision refused by the store: passed through');
  if (folded.handles.length === 0) return unchanged(block, 'nothing worth folding');
  return { text: folded.text, handles: folded.handles, tier: 'digest', kind };
}

/**
 * Keep-model scores for the lines that are neither fixed nor guarded (0 elsewhere: those lines are kept
 * whatever they score). Scoring only the undecided lines matters most for the transformer.
 */
async function scoreUndecided(
  keepModel: KeepModel,
  lines: readonly string[],
  kind: ContentKind,
  guard: Uint8Array,
  fixed: Uint8Array,
): Promise<Float32Array> {
  const undecided: number[] = [];
  for (let i = 0; i < lines.length; i++) if (fixed[i] === 0 && guard[i] === 0) undecided.push(i);
  const scores = new Float32Array(lines.length);
  if (undecided.length === 0) return scores;
  const scored = await keepModel.scoreLines(
    undecided.map((i) => lines[i]!),
    kind,
  );
  for (let k = 0; k < undecided.length; k++) scores[undecided[k]!] = scored[k]!;
  return scores;
}
