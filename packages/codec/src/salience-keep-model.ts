import { type ContentKind, DECISION_MARKER, type KeepModel } from '@distil/contract';
import {
  emptyCounts,
  hasDebugNoise,
  hasErrorWords,
  hasVerdict,
  isKeyValue,
  isTableRow,
  isTimestampOnly,
  readLine,
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

/** Lines up to this long are scored once per call however often they repeat (see scoreLinesSync). */
const MAX_SHARED_SCORE = 400;

/**
 * Scores one line with the salience rules. Deterministic and allocation-free on the common path; any line
 * containing `DECISION:` scores 1, a blank line 0.
 */
export function salienceOf(line: string): number {
  if (line.includes(DECISION_MARKER)) return 1;
  const body = withoutTimestamp(line);
  const words = readLine(body, counts);
  if (counts.nonSpace === 0) return 0;
  const r = SALIENCE_RULES;
  if (isTimestampOnly(line, body, counts.digits)) return r.emptyTimestamp;
  let score = r.base;
  if (hasErrorWords(body, words)) score += r.error;
  if (hasVerdict(body, words)) score += r.verdict;
  if (isTableRow(body, counts.pipes)) score += r.tableRow;
  else if (isKeyValue(body, words)) score += r.keyValue;
  const density = counts.digits / counts.nonSpace;
  score += r.digits * Math.min(1, density / 0.4);
  if (hasDebugNoise(body, words)) score += r.debugNoise;
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
    // Logs repeat lines (blank lines, progress, one warning per module): each distinct text is scored
    // once. Long lines rarely repeat and cost as much to hash as to score, so they are scored each time.
    const scored = new Map<string, number>();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const shared = line.length <= MAX_SHARED_SCORE;
      let score = shared ? scored.get(line) : undefined;
      if (score === undefined) {
        score = salienceOf(line);
        if (shared) scored.set(line, score);
      }
      scores[i] = score;
    }
    return scores;
  }

  /** Keep-probability of one line. */
  score(line: string, _kind: ContentKind): Promise<number> {
    return Promise.resolve(salienceOf(line));
  }
}
