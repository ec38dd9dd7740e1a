import { lineShape } from '../guard/line-shape.js';

/**
 * A shape kept more often than this is treated as noise: its first and last few lines stay. Real failure
 * lists (a linter's findings, a suite's failing tests) run to dozens of alike lines and all matter; a
 * flood runs to hundreds.
 */
const MAX_ALIKE = 48;
const KEEP_FIRST = 3;
const KEEP_LAST = 2;

/**
 * Outcome-aware noise dedup (spec/threat-model.txt): among the lines selected for keeping, lines of the
 * same shape (digits and variable tokens masked) beyond the first three and last two are released to
 * the fold. Lines in `exempt` (verdicts, decision markers, anchors, head and tail) are never released.
 *
 * Known weakness, kept deliberately and pinned by a test (dedup_baiting): 300 attacker lines that
 * differ from the real error only in a number share its shape, so the real line can be folded. It stays
 * recoverable and announced by its stub; the keep policy is a savings heuristic, not a security control.
 * `maxAlike`: the shape count beyond which a shape is noise (default 48).
 */
export function releaseNoise(
  lines: readonly string[],
  keep: Uint8Array,
  exempt: Uint8Array,
  maxAlike: number = MAX_ALIKE,
): void {
  const byShape = new Map<string, number[]>();
  for (let i = 0; i < lines.length; i++) {
    if (keep[i] === 0 || exempt[i] === 1) continue;
    const shape = lineShape(lines[i]!);
    const list = byShape.get(shape);
    if (list) list.push(i);
    else byShape.set(shape, [i]);
  }
  for (const indices of byShape.values()) {
    if (indices.length <= maxAlike) continue;
    for (let k = KEEP_FIRST; k < indices.length - KEEP_LAST; k++) keep[indices[k]!] = 0;
  }
}
