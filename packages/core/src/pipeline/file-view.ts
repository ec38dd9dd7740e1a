import type { ContentKind } from '@distil/contract';
import { detectKind } from './detect-kind.js';

/**
 * Whether the digest may fold a block's lines by salience. Salience is a judgement about logs and tool
 * chatter: which lines are routine in their block. Two kinds of text are not that, and folding them hid
 * the lines agents went on to quote (replayed real Claude Code sessions: 7% of the referenced lines of
 * their tool output, all in files they had read): prose documents — an agent reads a README or a workflow
 * file for its instructions, every line of which may be the one it follows — and a file the agent asked
 * for by name, shown with consecutive line numbers (Claude Code's Read, `cat -n`, SWE-agent's and
 * OpenHands' file viewers), unless what the file holds is itself a log. Both still get the lossless tier,
 * and large source files their skeleton.
 */
export function foldableBySalience(text: string, kind: ContentKind): boolean {
  if (!FOLDABLE_KINDS.has(kind)) return false;
  const view = numberedView(text);
  return view === null || detectKind(view) === 'log';
}

/**
 * Kinds whose lines can be folded independently. Source is digested by the session layer's skeleton
 * (definitions kept, bodies folded) and JSON by the lossless columnar form, never line by line; prose
 * (`doc`) is never folded.
 */
const FOLDABLE_KINDS: ReadonlySet<ContentKind> = new Set(['tool_output', 'log', 'diff', 'chat']);

/** A line-number gutter: the number, then a tab, an arrow or a colon (`  12→`, `12\t`, `12:`). */
const GUTTER = /^ *(\d{1,9})(?:\t|→|:)/;
/** A viewer may print a line or two before the listing (`[File: … (80 lines total)]`). */
const MAX_HEADER_LINES = 3;
/** Below this many numbered lines a listing is a snippet, which salience may judge like any output. */
const MIN_NUMBERED = 5;

/**
 * The text of a numbered file listing without its gutter, or null when `text` is not one: after at most
 * a short header, lines numbered consecutively (grep -n output skips numbers, a listing never does) for
 * nine in ten of the lines that follow.
 */
function numberedView(text: string): string | null {
  const lines = text.split('\n', 20_000);
  for (let start = 0; start <= MAX_HEADER_LINES && start < lines.length; start++) {
    const first = GUTTER.exec(lines[start]!);
    if (!first) continue;
    let next = Number(first[1]);
    const body: string[] = [];
    let numbered = 0;
    for (const line of lines.slice(start)) {
      const match = GUTTER.exec(line);
      if (match && Number(match[1]) === next) {
        numbered++;
        next++;
        body.push(line.slice(match[0].length));
      } else body.push(line);
    }
    const rest = lines.length - start;
    if (numbered >= MIN_NUMBERED && numbered * 10 >= rest * 9) return body.join('\n');
    return null;
  }
  return null;
}
