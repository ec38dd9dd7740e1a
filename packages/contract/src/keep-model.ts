import type { ContentKind } from './content-kind.js';

/** The marker that makes a line unconditionally load-bearing: every KeepModel scores it 1. */
export const DECISION_MARKER = 'DECISION:';

/**
 * Scores lines of one block with a keep-probability. Implementations live in @distil/codec; the
 * compression core keeps lines that score at or above its threshold and folds the rest behind handles.
 */
export interface KeepModel {
  /** Stable identity, e.g. `salience`, `logistic`, `transformer:<sha>`; part of cache keys. */
  readonly id: string;
  /** Keep-probability in [0, 1] per line. A line containing `DECISION:` always scores 1. */
  scoreLines(lines: readonly string[], kind: ContentKind): Promise<Float32Array>;
}
