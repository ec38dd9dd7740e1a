import { SalienceKeepModel, salienceOf } from '@distil/codec';
import {
  type Block,
  type ContentKind,
  type Handle,
  HandleCollisionError,
  type KeepContext,
  type KeepModel,
  type RestoreStore,
  type TierConfig,
} from '@distil/contract';
import { GuardReason, guardLines } from '../guard/guard-lines.js';
import { lineTable } from '../guard/line-table.js';
import { mineTemplates } from '../tier0/template-miner.js';
import { alikeGuarded, type KeptEnds } from '../tier1/alike-guarded.js';
import { releaseRepeats } from '../tier1/block-repeats.js';
import { foldRuns } from '../tier1/fold.js';
import { routinePassingVerdicts } from '../tier1/passing-verdicts.js';
import { fixedLines, keptEnds, selectLines } from '../tier1/select-lines.js';
import { containsStubSyntax } from '../tier1/stub.js';
import { analysisLines } from './analysis-lines.js';
import { looksBinary } from './binary.js';
import { detectKind } from './detect-kind.js';
import { foldableBySalience } from './file-view.js';
import { joinJsonEnvelope, splitJsonEnvelope } from './json-envelope.js';
import { splitSegments } from './lines.js';
import { encodeLossless } from './lossless-block.js';
import { hasEnvelope, splitEnvelope, type ToolEnvelope } from './tool-envelope.js';

/** What compressing one block needs. Nothing here is shared between blocks except the read-only parts. */
export interface CompressOptions {
  readonly keepModel: KeepModel;
  readonly store: RestoreStore;
  readonly tiers: TierConfig;
  /** Tokens the trusted side of the conversation names (see collectAnchors); guarded when mentioned. */
  readonly anchors?: ReadonlySet<string>;
  /**
   * What the trusted side of the conversation says (the task, the call's input, the agent's recent text),
   * handed to the keep model as it is: a model may condition on it, the rules ignore it.
   */
  readonly context?: KeepContext;
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
 * Blocks beyond this many characters go out whole. The proxy refuses bodies over 32 MiB by default, and
 * a block that large is a dump (a bundle, a database export) rather than something to digest in line.
 */
const MAX_BLOCK_CHARS = 32 * 1024 * 1024;

const unchanged = (block: Block, note: string): CompressedBlock => ({
  text: block.text,
  handles: [],
  tier: 'none',
  kind: block.kind,
  note,
});

/**
 * Compresses one block, deterministically and from its own text alone: the same block gives the same
 * bytes whatever other blocks exist (spec/threat-model.txt: no shared budget). Logs and tool outputs get
 * the reversible digest (tier 1) when it folds anything; otherwise, and for JSON, the lossless tier
 * (tier 0) re-encodes the block and closes it with the handle of the exact original. A client's wrapper
 * around the tool's output (tool-envelope.ts: Codex's exec header, Claude Code's persisted-output frame,
 * an appended system reminder) goes out verbatim; only the output inside it is compressed. So does a
 * JSON object around the output's text (json-envelope.ts: earlier Codex releases' `{"output":…}`).
 */
export async function compressBlock(block: Block, options: CompressOptions): Promise<CompressedBlock> {
  const { text, kind } = block;
  if (text.length === 0) return unchanged(block, 'empty');
  if (text.length > MAX_BLOCK_CHARS) return unchanged(block, 'larger than 32 MiB: passed through');
  if (looksBinary(text)) return unchanged(block, 'binary or not UTF-8 text: passed through');
  // A block that already prints stub syntax could make a restore substitute the wrong span; it is
  // passed through whole (a denial of savings, never a wrong expansion).
  if (containsStubSyntax(text)) return unchanged(block, 'contains stub syntax: passed through');
  const digested = options.depth !== 'lossless' ? await digestJsonField(block, options) : null;
  if (digested) return digested;
  const envelope = splitEnvelope(text);
  if (options.depth !== 'lossless' && foldableBySalience(envelope.body, kind)) {
    const digest = await digestBlock(block, envelope, options);
    if (typeof digest !== 'string') return digest;
    if (digest === COLLISION) return unchanged(block, digest);
  }
  const lossless = await encodeLossless(block, {
    envelope,
    store: options.store,
    keepModel: options.keepModel,
    context: options.context,
    // as a fallback of the default depth, lines the keep model would keep stay verbatim too
    ...(options.depth !== 'lossless' && { keepThreshold: options.tiers.keepThreshold }),
    anchors: options.anchors,
    anchoredLines: anchoredLines(options.tiers),
  }).catch((error: unknown) => {
    if (error instanceof HandleCollisionError) return null;
    throw error;
  });
  if (lossless === null) return unchanged(block, 'no transform paid for itself');
  return { text: lossless.text, handles: [lossless.handle], tier: 'lossless', kind };
}

/**
 * The digest of a tool output sent as a JSON object around its text (json-envelope.ts), or null: the
 * field's text is compressed as the block it is and written back as JSON, every other byte as it came.
 * Only a digest is taken (its stubs restore inside the field, see restoreBlock); otherwise the object is
 * encoded as JSON.
 */
async function digestJsonField(block: Block, options: CompressOptions): Promise<CompressedBlock | null> {
  const json = splitJsonEnvelope(block.text);
  if (json === null) return null;
  const field: Block = { ...block, kind: detectKind(json.body), text: json.body };
  const inner = await compressBlock(field, options);
  if (inner.tier !== 'digest') return null;
  return { ...inner, text: joinJsonEnvelope(json, inner.text), kind: block.kind };
}

/** The lines anchors may single out in one block: as many as the digest's head and tail show anyway. */
const anchoredLines = (tiers: TierConfig): number => tiers.headLines + tiers.tailLines;

const COLLISION = 'short-handle collision refused by the store: passed through';

/**
 * Tier 1 for one block: keeps head, tail, verdicts, guarded lines and lines the KeepModel scores high of
 * the tool's output (the envelope's body), and folds the rest behind stubs. A string when nothing was
 * folded (why), for the lossless tier to try.
 */
async function digestBlock(
  block: Block,
  envelope: ToolEnvelope,
  options: CompressOptions,
): Promise<CompressedBlock | string> {
  const { segments, lines: raw } = splitSegments(envelope.body);
  if (raw.length < options.tiers.minLines) return 'short block';
  const lines = analysisLines(raw);
  const table = lineTable(lines);
  const guard = guardLines(lines, {
    kind: block.kind,
    anchors: options.anchors,
    anchoredLines: anchoredLines(options.tiers),
    table,
  });
  const alike = citedTemplates(lines);
  const ends = keptEnds(lines.length, options.tiers);
  const released = alikeGuarded(lines, guard, alike, table, ends);
  const alikeFindings = released.slice();
  const verdicts = routinePassingVerdicts(lines, table);
  for (let i = 0; i < lines.length; i++) released[i] = released[i]! | verdicts[i]!;
  const fixed = fixedLines(lines, guard, options.tiers, table, released);
  const { scores, floor } = await scoreUndecided(options, lines, block.kind, guard, fixed, released);
  const keep = selectLines(
    { lines, guard, fixed, scores, released, templates: alike, ...(floor ? { floor } : {}) },
    options.tiers,
  );
  const repeats = releaseRepeats(raw, keep, pinnedLines(guard, ends));
  const findings = guard.map((r) => ((r & GuardReason.surprise) !== 0 ? 1 : 0));
  // The store refuses a short-handle collision (an attacker can engineer one in ~2^24 hashes); the block
  // then goes out whole — a denial of savings, never a failed request or a wrong expansion.
  const folded = await foldRuns(segments, keep, options.store, {
    alike,
    findings,
    repeats,
    alikeFindings,
  }).catch((error: unknown) => {
    if (error instanceof HandleCollisionError) return null;
    throw error;
  });
  if (folded === null) return COLLISION;
  if (folded.handles.length === 0) return 'nothing worth folding';
  const text = hasEnvelope(envelope) ? envelope.prefix + folded.text + envelope.suffix : folded.text;
  return { text, handles: folded.handles, tier: 'digest', kind: block.kind };
}

/** The rules' id: a wrapped rules model (the proxy's fail-open guard) keeps it, where `instanceof` would not. */
const RULES_ID = new SalienceKeepModel().id;

/**
 * Keep-model scores for the lines that are neither fixed nor guarded (0 elsewhere: those lines are kept
 * whatever they score), each at least the rules' own score unless the model is the rules; `floor` then
 * holds the rules' scores alone, so selectLines can keep what the rules would keep by their own bar.
 * Scoring only the undecided lines matters most for the transformer.
 */
async function scoreUndecided(
  { keepModel, context }: CompressOptions,
  lines: readonly string[],
  kind: ContentKind,
  guard: Uint8Array,
  fixed: Uint8Array,
  released: Uint8Array,
): Promise<{ scores: Float32Array; floor?: Float32Array }> {
  const undecided: number[] = [];
  for (let i = 0; i < lines.length; i++)
    if (fixed[i] === 0 && guard[i] === 0 && released[i] === 0) undecided.push(i);
  const scores = new Float32Array(lines.length);
  if (undecided.length === 0) return { scores };
  // A model that reads the block around each line sees the whole block, or its scores would shift. Any
  // model but the rules themselves is floored at the rules' score: a line the rules keep by its own score
  // keeps at least that score, so a learned model adds lines the rules would fold and ranks the rest, but
  // never lets a line the rules keep go.
  const all = keepModel.wholeBlock ? await keepModel.scoreLines(lines, kind, context) : undefined;
  const scored =
    all ??
    (await keepModel.scoreLines(
      undecided.map((i) => lines[i]!),
      kind,
      context,
    ));
  const floor = keepModel.id !== RULES_ID ? new Float32Array(lines.length) : undefined;
  undecided.forEach((i, k) => {
    const score = all ? all[i]! : scored[k]!;
    if (floor) floor[i] = salienceOf(lines[i]!);
    scores[i] = floor ? Math.max(score, floor[i]!) : score;
  });
  return floor ? { scores, floor } : { scores };
}

/**
 * Lines kept whatever they repeat: the head and tail, and lines guarded for an anchor, a diff change or
 * a producer's elision note.
 */
function pinnedLines(guard: Uint8Array, ends: KeptEnds): Uint8Array {
  const held = GuardReason.anchor | GuardReason.diffChange | GuardReason.elision;
  return guard.map((r, i) => (i < ends.head || i >= ends.tailStart || (r & held) !== 0 ? 1 : 0));
}

/**
 * Each line's mined template (tier0/template-miner.ts), -1 where the template has no fixed token to
 * cite (the empty line, a bare variable): lines of one template are "alike" to the noise rules and to a
 * stub's note.
 */
function citedTemplates(lines: readonly string[]): Int32Array {
  const { clusterOf, templates } = mineTemplates(lines);
  const cited = templates.map((t) => /[^\s]/.test(t.replaceAll('<*>', '')));
  return clusterOf.map((c) => (cited[c] ? c : -1));
}
