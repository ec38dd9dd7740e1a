import { withoutRunnerTime } from '../guard/terminal-codes.js';

/**
 * Repeats are the same news (issue #16): a build that fails on a full disk prints the same
 * `IOException` and its forty frames once per module, and every copy was kept whole — a stack frame is
 * never folded as noise, so thirty-six copies of one trace were a third of the digest. Once a line's exact
 * text is kept, a later copy of it adds nothing the agent has not read: it is released to the fold, whose
 * stub says the lines are repeated above when they all are, and the handle gives every copy back.
 *
 * `keep` is the final selection and is changed in place; `pinned` lines (head and tail, anchors, diff
 * changes, a producer's elision note) stay whatever they repeat, and blank lines stay for readability.
 * Returns the released lines (1 = a copy of a kept line above). A function of the block alone.
 *
 * `raw` are the lines as the tool printed them: a copy must match byte for byte, colour codes included
 * (a test runner prints expected and received lines alike but for their colour), apart from the
 * runner's timestamp prefix.
 */
export function releaseRepeats(raw: readonly string[], keep: Uint8Array, pinned: Uint8Array): Uint8Array {
  const repeats = new Uint8Array(raw.length);
  const shown = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    if (keep[i] === 0 || raw[i]!.trim().length === 0) continue;
    const line = withoutRunnerTime(raw[i]!);
    if (pinned[i] === 0 && shown.has(line)) {
      keep[i] = 0;
      repeats[i] = 1;
    } else shown.add(line);
  }
  return repeats;
}
