import type { ContentKind, Decision, Trajectory } from '@distil/contract';
import { decisionLabels, FollowingText } from './decision-labels.js';

/** One tool output of a trajectory, split into lines, with a decision-derived label per line. */
export interface LabelledToolOutput {
  /** `<trajectory id>#<turn>.<block>`. */
  readonly source: string;
  readonly kind: ContentKind;
  readonly lines: readonly string[];
  readonly decision: Uint8Array;
}

/** Turns read after a tool output whose actions and reasoning count as "what the agent did next". */
export const DECISION_WINDOW = 3;

/** Every string and number inside a decision, one per line: what an action carries, without JSON escapes. */
export function decisionToText(decision: Decision | null): string {
  if (!decision) return '';
  if (decision.type === 'final') return decision.text;
  const parts: string[] = [decision.tool];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean') parts.push(String(value));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(decision.arguments);
  return parts.join('\n');
}

/** `\r\n`, lone `\r` and `\n` all end a line, as in the compression core. */
const LINE_BREAK = /\r\n|\r|\n/;

/** Splits text into lines; a final line break ends the last line rather than starting an empty one. */
export function splitLines(text: string, breaks: RegExp = LINE_BREAK): string[] {
  const lines = text.split(breaks);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The tool outputs of a trajectory with decision-derived labels. In a turn, the blocks are what the agent
 * read before its decision: the reasoning behind the previous action and that action's result. So for a
 * tool output in turn t, "known" is turn t−1's decision and turn t's reasoning, and "following" is the
 * decisions of turns t … t+W−1 and the reasoning written in turns t+1 … t+W.
 */
export function labelToolOutputs(
  trajectory: Trajectory,
  isCommonWord: (word: string) => boolean,
  window = DECISION_WINDOW,
): LabelledToolOutput[] {
  const turns = trajectory.turns;
  const reasoning = turns.map((turn) =>
    turn.blocks
      .filter((b) => b.role === 'assistant')
      .map((b) => b.text)
      .join('\n'),
  );
  const actions = turns.map((turn) => decisionToText(turn.decision));
  const out: LabelledToolOutput[] = [];
  turns.forEach((turn, t) => {
    const toolBlocks = turn.blocks
      .map((block, b) => ({ block, b }))
      .filter(({ block }) => block.role === 'tool');
    if (toolBlocks.length === 0) return;
    const followingText = [...actions.slice(t, t + window), ...reasoning.slice(t + 1, t + 1 + window)].join(
      '\n',
    );
    // An output with nothing after it cannot be labelled by what came next.
    if (followingText.trim() === '') return;
    const following = new FollowingText(followingText);
    const known = new FollowingText([t > 0 ? actions[t - 1] : '', reasoning[t]].join('\n'));
    for (const { block, b } of toolBlocks) {
      const lines = splitLines(block.text);
      out.push({
        source: `${trajectory.id}#${t}.${b}`,
        kind: block.kind,
        lines,
        decision: decisionLabels(lines, following, known, isCommonWord),
      });
    }
  });
  return out;
}
