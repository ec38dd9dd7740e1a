import type { ContentKind } from '@distil/contract';
import { mentionsAnchor } from './anchors.js';
import { hasLocation } from './diagnostics.js';
import { hasDenseToken } from './entropy.js';
import { hasIdentifier } from './identifiers.js';
import { coarseShapeCounts } from './line-shape.js';
import { isDiffChange, isDiffHeader, isSurprising } from './surprise.js';

/** Why a line is guarded: bit flags, so a caller can report the reasons. */
export const GuardReason = Object.freeze({
  surprise: 1,
  diffChange: 2,
  identifier: 4,
  entropy: 8,
  anchor: 16,
  location: 32,
});

/** A shape seen at most this often in a block counts as standing out. */
const RARE_SHAPE = 2;

export interface GuardOptions {
  readonly kind: ContentKind;
  /** Tokens named by the trusted side of the conversation (see collectAnchors). */
  readonly anchors?: ReadonlySet<string>;
}

/**
 * The salience guard (spec: salience protection): per line, the reasons it must survive tier 1, 0 when
 * none. Decided from the block's own text and the trusted anchors only.
 *
 * Surprise, diff changes, source locations and anchors guard a line outright. Identifier and entropy signals guard a line
 * only when its shape is rare in the block: in a build log every download line carries a path and a
 * version, and guarding all of them would keep the noise; the one line with an id that appears nowhere
 * else is the one worth keeping.
 */
export function guardLines(lines: readonly string[], options: GuardOptions): Uint8Array {
  const reasons = new Uint8Array(lines.length);
  const anchors = options.anchors;
  let shapes: { shapes: number[]; counts: Map<number, number> } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    let r = 0;
    if (isSurprising(line)) r |= GuardReason.surprise;
    // a diff printed inside a log (a formatter's complaint, a snapshot) is announced by its header
    const diffHeader = (options.kind === 'diff' || line.startsWith('diff --git ')) && isDiffHeader(line);
    if (diffHeader || isDiffChange(line, options.kind)) r |= GuardReason.diffChange;
    if (anchors && mentionsAnchor(line, anchors)) r |= GuardReason.anchor;
    if (hasLocation(line)) r |= GuardReason.location;
    if (r === 0) {
      // Rarity is the cheaper test, so it goes first: most lines are one of many alike.
      shapes ??= coarseShapeCounts(lines);
      if ((shapes.counts.get(shapes.shapes[i]!) ?? 0) <= RARE_SHAPE) {
        if (hasIdentifier(line)) r |= GuardReason.identifier;
        if (hasDenseToken(line)) r |= GuardReason.entropy;
      }
    }
    reasons[i] = r;
  }
  return reasons;
}
