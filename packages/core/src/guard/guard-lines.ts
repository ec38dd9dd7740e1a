import type { ContentKind } from '@distil/contract';
import { anchoredTexts, DEFAULT_ANCHORED_LINES } from './anchors.js';
import { hasLocation } from './diagnostics.js';
import { isElisionMarker } from './elision-markers.js';
import { hasDenseToken } from './entropy.js';
import { hasIdentifier } from './identifiers.js';
import { coarseShape } from './line-shape.js';
import { type LineTable, lineTable } from './line-table.js';
import { clearRoutineSlotSurprise } from './routine-slots.js';
import { isDiffChange, isDiffHeader, isSurprising } from './surprise.js';
import { guardTableRows } from './table-rows.js';

/** Why a line is guarded: bit flags, so a caller can report the reasons. */
export const GuardReason = Object.freeze({
  surprise: 1,
  diffChange: 2,
  identifier: 4,
  entropy: 8,
  anchor: 16,
  location: 32,
  /** The producer's own note that output was cut here (Codex's `…N tokens truncated…`). */
  elision: 64,
  /** A row of a short table, or one whose value in a categorical column few rows share (table-rows.ts). */
  tableRow: 128,
});

/** A shape seen at most this often in a block counts as standing out. */
const RARE_SHAPE = 2;

export interface GuardOptions {
  readonly kind: ContentKind;
  /** Tokens named by the trusted side of the conversation (see collectAnchors). */
  readonly anchors?: ReadonlySet<string>;
  /**
   * Most lines the anchors may single out in this block (see anchoredTexts); default 20, the digest's
   * default head plus tail. The pipeline passes its configured head plus tail.
   */
  readonly anchoredLines?: number;
  /** The lines' table (repeats collapsed, keywords found), when the caller has it already. */
  readonly table?: LineTable;
}

/**
 * The salience guard (spec: salience protection): per line, the reasons it must survive tier 1, 0 when
 * none. Decided from the block's own text and the trusted anchors only.
 *
 * Surprise, diff changes, source locations, a producer's elision note and anchors guard a line outright (an anchor only where it
 * singles lines out of this block, see anchoredTexts) — surprise relative to the block: a weak word in
 * the variable slot of a routine frame is not a finding (see clearRoutineSlotSurprise). Identifier and entropy signals guard a line
 * only when its shape is rare in the block: in a build log every download line carries a path and a
 * version, and guarding all of them would keep the noise; the one line with an id that appears nowhere
 * else is the one worth keeping.
 *
 * Every signal is a function of the line's text and the block's shape counts, so each distinct text is
 * judged once and its repeats take the same reasons.
 */
export function guardLines(lines: readonly string[], options: GuardOptions): Uint8Array {
  const { ids, texts, keywords } = options.table ?? lineTable(lines);
  const repeats = new Int32Array(texts.length);
  for (let i = 0; i < ids.length; i++) repeats[ids[i]!]!++;
  const anchored = options.anchors
    ? anchoredTexts(texts, repeats, options.anchors, options.anchoredLines ?? DEFAULT_ANCHORED_LINES)
    : undefined;
  const judged = new Uint8Array(texts.length);
  for (let u = 0; u < texts.length; u++) {
    let r = outrightReasons(texts[u]!, keywords[u]!, options.kind);
    if (anchored?.[u] === 1 && texts[u]!.length > 0) r |= GuardReason.anchor;
    judged[u] = r;
  }
  clearRoutineSlotSurprise(texts, repeats, keywords, judged, GuardReason.surprise);
  let undecided = false;
  for (let u = 0; u < texts.length && !undecided; u++) undecided = judged[u] === 0 && texts[u]!.length > 0;
  if (undecided) guardRareIdentifiers(texts, repeats, judged);
  guardTableRows(texts, repeats, judged, GuardReason.tableRow);
  const reasons = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++) reasons[i] = judged[ids[i]!]!;
  return reasons;
}

/** The reasons that guard a line whatever the rest of the block holds; `keywords`: its lineKeywords. */
function outrightReasons(line: string, keywords: number, kind: ContentKind): number {
  if (line.length === 0) return 0;
  let r = 0;
  if (isSurprising(line, keywords)) r |= GuardReason.surprise;
  // a diff printed inside a log (a formatter's complaint, a snapshot) is announced by its header
  const diffHeader = (kind === 'diff' || line.startsWith('diff --git ')) && isDiffHeader(line);
  if (diffHeader || isDiffChange(line, kind)) r |= GuardReason.diffChange;
  if (hasLocation(line)) r |= GuardReason.location;
  if (isElisionMarker(line)) r |= GuardReason.elision;
  return r;
}

/**
 * Identifier and entropy reasons, in `judged`, for the texts that have no other reason and whose coarse
 * shape is rare in the block (counted over every line: `repeats[u]` lines repeat text u).
 */
function guardRareIdentifiers(texts: readonly string[], repeats: Int32Array, judged: Uint8Array): void {
  const counts = shapeCounts(texts, repeats);
  for (let u = 0; u < texts.length; u++) {
    const line = texts[u]!;
    // Rarity is the cheaper test, so it goes first: most lines are one of many alike.
    if (judged[u] !== 0 || line.length === 0 || counts[u]! > RARE_SHAPE) continue;
    let r = 0;
    if (hasIdentifier(line)) r |= GuardReason.identifier;
    if (hasDenseToken(line)) r |= GuardReason.entropy;
    judged[u] = r;
  }
}

/**
 * Per text, how many lines of the block share its coarse shape (`repeats[u]` lines repeat text u). A
 * shape is below 2^31, so it is counted in an open-addressing table of 32-bit keys: a Map would box
 * every shape above 2^30 as a heap number.
 */
export function shapeCounts(texts: readonly string[], repeats: Int32Array): Int32Array {
  let size = 16;
  while (size < texts.length * 2) size *= 2;
  const mask = size - 1;
  // a key no shape takes (shapes are below 2^31) marks an empty slot
  const keys = new Uint32Array(size).fill(0xffffffff);
  const sums = new Int32Array(size);
  const slotOf = new Int32Array(texts.length);
  for (let u = 0; u < texts.length; u++) {
    const shape = coarseShape(texts[u]!);
    let slot = (Math.imul(shape, 0x9e3779b1) >>> 0) & mask;
    while (keys[slot] !== 0xffffffff && keys[slot] !== shape) slot = (slot + 1) & mask;
    keys[slot] = shape;
    sums[slot] = sums[slot]! + repeats[u]!;
    slotOf[u] = slot;
  }
  const counts = new Int32Array(texts.length);
  for (let u = 0; u < texts.length; u++) counts[u] = sums[slotOf[u]!]!;
  return counts;
}
