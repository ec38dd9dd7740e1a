import { type ContentKind, DECISION_MARKER, type KeepModel } from '@distil/contract';
import {
  countCharacters,
  DEBUG_PATTERN,
  ERROR_PATTERN,
  emptyCounts,
  isTableRow,
  isTimestampOnly,
  KEY_VALUE_PATTERN,
  VERDICT_PATTERN,
  withoutTimestamp,
} from './line-signals.js';

/**
 * The weights of the rules. Additive, then clamped to [0, 1], so a rule set reads as "how much does this
 * signal matter". With the default keep threshold of 0.6: an error line, a verdict, a key: value line and a
 * table row are kept on their own; debug noise pulls anything but an error or a verdict below it.
 */
export const SALIENCE_RULES = Object.freeze({
  /** Where a line with no signal at all starts. */
  base: 0.25,
  error: 0.65,
  verdict: 0.7,
  keyValue: 0.4,
  tableRow: 0.4,
  /** Added in proportion to digit density, saturating at a density of 40 %. */
  digits: 0.2,
  debugNoise: -0.3,
  /** A line that is only a timestamp (or a progress bar) scores this, whatever else it holds. */
  emptyTimestamp: 0.05,
});

const counts = emptyCounts();

/**
 * Scores one line with the salience rules. Deterministic and allocation-free on the common path; any line
 * containing `DECISION:` scores 1, a blank line 0.
 */
export function salienceOf(line: string): number {
  if (line.includes(DECISION_MARKER)) return 1;
  const body = withoutTimestamp(line);
  countCharacters(body, counts);
  if (counts.nonSpace === 0) return 0;
  const r = SALIENCE_RULES;
  if (isTimestampOnly(line, body, counts.digits)) return r.emptyTimestamp;
  let score = r.base;
  if (ERROR_PATTERN.test(body)) score += r.error;
  if (VERDICT_PATTERN.test(body)) score += r.verdict;
  if (isTableRow(body, counts.pipes)) score += r.tableRow;
  else if (KEY_VALUE_PATTERN.test(body)) score += r.keyValue;
  const density = counts.digits / counts.nonSpace;
  score += r.digits * Math.min(1, density / 0.4);
  if (DEBUG_PATTERN.test(body)) score += r.debugNoise;
  return Math.max(0, Math.min(score, 1));
}

/**
 * The always-available KeepModel: deterministic rules over error keywords, verdicts, structured data, digit
 * density and debug noise (spec: "Heuristic default — SalienceKeepModel"). No dependencies, no training.
 * The content kind does not change the rules: they describe lines, whatever block they sit in.
 */
export class SalienceKeepModel implements KeepModel {
  readonly id = 'salience';

  /** Keep-probability per line; see {@link salienceOf}. */
  scoreLines(lines: readonly string[], _kind: ContentKind): Promise<Float32Array> {
    return Promise.resolve(this.scoreLinesSync(lines));
  }

  /** The same scores without a promise, for callers on a hot synchronous path (labelling, benchmarks). */
  scoreLinesSync(lines: readonly string[]): Float32Array {
    const scores = new Float32Array(lines.length);
    for (let i = 0; i < lines.length; i++) scores[i] = salienceOf(lines[i]!);
    return scores;
  }

  /** Keep-probability of one line. */
  score(line: string, _kind: ContentKind): Promise<number> {
    return Promise.resolve(salienceOf(line));
  }
}
