import type { TierConfig } from '@distil/contract';
import { GuardReason } from '../guard/guard-lines.js';
import { type LineTable, lineTable } from '../guard/line-table.js';
import type { KeptEnds } from './alike-guarded.js';
import { ABOVE, FRAME_SEED, isFrame, keepErrorContext, TRACE } from './error-context.js';
import { releaseNoise } from './noise-dedup.js';
import { isVerdictText } from './verdicts.js';

export interface LineSignals {
  readonly lines: readonly string[];
  /** Salience guard reasons per line (0 = none). */
  readonly guard: Uint8Array;
  /** Lines kept whatever their score (see fixedLines). */
  readonly fixed: Uint8Array;
  /** KeepModel keep-probabilities per line; only read for lines neither fixed nor guarded. */
  readonly scores: Float32Array;
  /**
   * The rules' own scores, when a learned model scored the block (its scores are floored at these): a
   * line the rules keep against their own bar stays kept however many lines the model scores high.
   */
  readonly floor?: Float32Array;
  /** Guarded lines released to the fold as members of a large alike list (see alikeGuarded). */
  readonly released?: Uint8Array;
  /** Each line's mined template (-1 for none worth citing), when known: see releaseRoutineScored. */
  readonly templates?: Int32Array;
}

/** Where a block of `n` lines ends its head and starts its tail: the lines kept as context. */
export function keptEnds(n: number, tiers: TierConfig): KeptEnds {
  const head = Math.min(n, tiers.headLines);
  return { head, tailStart: Math.max(head, n - tiers.tailLines) };
}

/**
 * Lines kept whatever the keep model says, and exempt from noise dedup (1 = fixed): head and tail
 * context, decision markers and verdicts, and lines guarded for naming an anchor, a source location, a
 * diff change or the producer's own elision note. Computed first so the keep model only scores the lines still undecided. `table` (the lines
 * with repeats collapsed, see lineTable) lets each distinct text be tested for a verdict once.
 */
export function fixedLines(
  lines: readonly string[],
  guard: Uint8Array,
  tiers: TierConfig,
  table: LineTable = lineTable(lines),
  released?: Uint8Array,
): Uint8Array {
  const n = lines.length;
  const fixed = new Uint8Array(n);
  const { head, tailStart } = keptEnds(n, tiers);
  const pinned = GuardReason.anchor | GuardReason.diffChange | GuardReason.location | GuardReason.elision;
  for (let i = 0; i < n; i++) {
    if (released?.[i] === 1) continue;
    if (i < head || i >= tailStart || (guard[i]! & pinned) !== 0) {
      fixed[i] = 1;
      continue;
    }
    if (isVerdictText(table, table.ids[i]!)) fixed[i] = 1;
  }
  return fixed;
}

/** At most this share of a long block's undecided lines is kept for its score alone. */
const SCORED_SHARE = 0.1;
/**
 * Blocks shorter than this keep every line that clears the threshold: a short block costs little whole,
 * and in one made of key-value lines (`kubectl describe`) the line that matters is a value like the rest.
 */
const RELATIVE_BAR_LINES = 200;

/**
 * The score a line needs to be kept for its score alone: the configured threshold, raised in a block where
 * more than a tenth of the undecided lines clear it. A keep model scores a line by itself (a key and a
 * value, a version number), and a block made of such lines — a CI job's settings dump, a monorepo's build
 * chatter — would be kept nearly whole; what the block says is that none of them stands out. The bar then
 * becomes the score of the block's top tenth: a line is kept for its score when it scores high relative to
 * its block. Guarded lines (findings, identifiers, locations) and fixed lines never depend on it.
 */
function scoreBar(signals: LineSignals, scores: Float32Array, threshold: number): number {
  const { guard, fixed, released } = signals;
  if (scores.length < RELATIVE_BAR_LINES) return threshold;
  const clearing: number[] = [];
  let undecided = 0;
  for (let i = 0; i < scores.length; i++) {
    if (fixed[i] !== 0 || guard[i] !== 0 || released?.[i] === 1) continue;
    undecided++;
    if (scores[i]! >= threshold) clearing.push(scores[i]!);
  }
  const allowed = Math.floor(undecided * SCORED_SHARE);
  if (clearing.length <= allowed) return threshold;
  clearing.sort((a, b) => b - a);
  // just above the first score left out, so lines tied at the cut are left out together
  return clearing[allowed]! + 1e-6;
}

/**
 * Which lines of a block survive tier 1 (1 = keep), decided from the block's own text alone — no budget
 * is shared with any other block (spec/threat-model.txt). In order: head and tail context; decision
 * markers and verdicts; guarded lines but those released as members of a large alike list; lines the KeepModel scores at or above the threshold; outcome-aware
 * noise dedup releases repeats among the scored and guarded lines; the context of the errors that remain;
 * then scored and context lines the block repeats by template or shape fold but for a few.
 */
export function selectLines(signals: LineSignals, tiers: TierConfig): Uint8Array {
  const { lines, guard, fixed, scores, released, floor } = signals;
  const n = lines.length;
  const keep = new Uint8Array(n);
  const bar = scoreBar(signals, scores, tiers.keepThreshold);
  // A learned model that scores many lines high raises the bar; the rules' lines face the rules' bar.
  const floorBar = floor ? scoreBar(signals, floor, tiers.keepThreshold) : bar;
  for (let i = 0; i < n; i++) {
    if (released?.[i] === 1) continue;
    if (fixed[i] === 1 || guard[i] !== 0 || scores[i]! >= bar || (floor && floor[i]! >= floorBar))
      keep[i] = 1;
  }
  releaseNoise(lines, keep, fixed);
  const errors = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    if ((guard[i]! & GuardReason.surprise) !== 0) errors[i] = 1;
    else if (isFrame(lines[i]!)) errors[i] = FRAME_SEED;
  }
  const scored = keep.slice();
  const roles = new Uint8Array(n);
  keepErrorContext(lines, errors, keep, roles);
  if (signals.templates) releaseRoutineScored(signals.templates, keep, scored, roles, fixed, guard);
  releaseRoutineContext(lines, keep, fixed, guard);
  return keep;
}

/**
 * Context is noise where the block repeats it (issue #16): an error's continuation or a line the keep
 * model scored can be one of hundreds alike — `npm ls` prints its whole dependency tree under `npm ERR!
 * missing`, a link checker numbers every URL it read. Among the lines kept only as context or for their
 * score (neither fixed, guarded nor a stack frame), a shape kept more than {@link ROUTINE_CONTEXT} times
 * keeps its first three and last two, as noise dedup does.
 */
function releaseRoutineContext(
  lines: readonly string[],
  keep: Uint8Array,
  fixed: Uint8Array,
  guard: Uint8Array,
): void {
  const exempt = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++)
    if (keep[i] === 1 && (fixed[i] === 1 || guard[i] !== 0 || isFrame(lines[i]!))) exempt[i] = 1;
  releaseNoise(lines, keep, exempt, ROUTINE_CONTEXT);
}

/** Alike context lines beyond this many are routine (see releaseRoutineContext). */
const ROUTINE_CONTEXT = 24;
/** Routine lines of one template kept: the first of them and the last (see releaseRoutineScored). */
const ROUTINE_FIRST = 3;
const ROUTINE_LAST = 2;

/**
 * Lines kept for their score, or as what stands above an error, that the block repeats by template: a
 * coverage table prints one row per source file (`  parser.js  |  100 |  100 |  100 |  100 |  |`),
 * every row scores as structured data, the rows just above the failing summary are indented like its
 * context, and each row names its own file, so no two share a shape. What a row says relative to the
 * block is that it is one of many: lines of one mined template (`templates`, -1 for none) kept only this
 * way, more than {@link ROUTINE_CONTEXT}, keep their first three and last two. `scored` marks the lines
 * kept before any error's context, `roles` why keepErrorContext kept a line. An error's trace and the
 * lines just after it (an expectation printed line by line), fixed and guarded lines never go this way.
 */
function releaseRoutineScored(
  templates: Int32Array,
  keep: Uint8Array,
  scored: Uint8Array,
  roles: Uint8Array,
  fixed: Uint8Array,
  guard: Uint8Array,
): void {
  const members = new Map<number, number[]>();
  for (let i = 0; i < keep.length; i++) {
    if (keep[i] === 0 || fixed[i] === 1 || guard[i] !== 0 || templates[i]! < 0) continue;
    if (roles[i] === TRACE || (scored[i] === 0 && roles[i] !== ABOVE)) continue;
    const list = members.get(templates[i]!);
    if (list) list.push(i);
    else members.set(templates[i]!, [i]);
  }
  for (const list of members.values()) {
    if (list.length <= ROUTINE_CONTEXT) continue;
    for (let k = ROUTINE_FIRST; k < list.length - ROUTINE_LAST; k++) keep[list[k]!] = 0;
  }
}
