import type { ContentKind } from '@distil/contract';
import { stripLineNumbers } from '../tier0/line-numbers.js';
import { detectKind } from './detect-kind.js';

/**
 * Whether the digest may fold a block's lines by salience. Salience is a judgement about logs and tool
 * chatter: which lines are routine in their block. Two kinds of text are not that, and folding them hid
 * the lines agents went on to quote (replayed real Claude Code sessions: 15% of the referenced lines of
 * their tool output, all in read files): prose documents — an agent reads a README or a workflow file for
 * its instructions, every line of which may be the one it follows — and a file the agent asked for by
 * name, shown with a line-number gutter (Claude Code's Read, `cat -n`, an editor view), unless what the
 * file holds is itself a log. Both still get the lossless tier; large source files their skeleton.
 */
export function foldableBySalience(text: string, kind: ContentKind): boolean {
  if (!FOLDABLE_KINDS.has(kind)) return false;
  const view = stripLineNumbers(text);
  return view === null || detectKind(view.text) === 'log';
}

/**
 * Kinds whose lines can be folded independently. Source is digested by the session layer's skeleton
 * (definitions kept, bodies folded) and JSON by the lossless columnar form, never line by line; prose
 * (`doc`) is never folded.
 */
const FOLDABLE_KINDS: ReadonlySet<ContentKind> = new Set(['tool_output', 'log', 'diff', 'chat']);
