import type { ContentKind } from './content-kind.js';

/** The marker that makes a line unconditionally load-bearing: every KeepModel scores it 1. */
export const DECISION_MARKER = 'DECISION:';

/**
 * What is known about the conversation before a tool output is read, for a keep model to condition on.
 * Trusted text only: what the user asked and what the agent itself wrote. Never the output being scored
 * or any other tool output, so a tool cannot steer what is kept of its own output by what it prints.
 */
export interface KeepContext {
  /** The task as the user stated it: the conversation's first user message. */
  readonly task?: string;
  /** The input of the tool call whose output is scored (its command, path or pattern), when known. */
  readonly input?: string;
  /** What the agent wrote before it read the output (its text and its tool inputs), oldest first. */
  readonly recent?: readonly string[];
}

/**
 * Scores lines of one block with a keep-probability. Implementations live in @distil/codec; the
 * compression core keeps lines that score at or above its threshold and folds the rest behind handles.
 *
 * Contract change (context-conditioned scoring): `scoreLines` takes an optional {@link KeepContext}. A
 * line's worth depends on what the agent is doing — the outside study of real Claude Code outputs found
 * overlap with the task the second-strongest signal — so a model may use it; a model that does not
 * (the salience rules) ignores it, and every caller may leave it out. The same lines, kind and context
 * must give the same scores: the pipeline's output stays a function of its inputs.
 */
export interface KeepModel {
  /** Stable identity, e.g. `salience`, `logistic`, `transformer:<sha>`; part of cache keys. */
  readonly id: string;
  /**
   * True when a line's score depends on the other lines of its block (how often its shape repeats there,
   * where it stands): the pipeline then hands the model every line of the block, not only the lines still
   * undecided, and reads the scores it needs.
   */
  readonly wholeBlock?: boolean;
  /** Keep-probability in [0, 1] per line. A line containing `DECISION:` always scores 1. */
  scoreLines(lines: readonly string[], kind: ContentKind, context?: KeepContext): Promise<Float32Array>;
}
