import { GuardReason } from '../guard/guard-lines.js';
import type { LineTable } from '../guard/line-table.js';
import { hasStrongSignal } from '../guard/surprise.js';
import { isFrame } from './error-context.js';
import { isVerdictText } from './verdicts.js';

/**
 * Repeated guarded lines fold (issue #16): a linter that prints 330 warnings of one template
 * (`src/env.js:132:41: 'x' is flagged by eqeqeq. [Warning/no-useless-escape]`) guards every one of them
 * as a source location, and pinned lines are exempt from noise dedup, so all 330 stayed. When a list of
 * findings holds more than {@link MAX_ALIKE} lines of one mined template, that template's first
 * {@link KEEP_FIRST} and last {@link KEEP_LAST} stay and the rest fold; the stub says the hidden lines are
 * like the kept line or the findings above (fold.ts), and the handle gives every one of them back.
 *
 * What never folds this way: a line with a strong failure word (an error must not go behind a stub as
 * "more of the same"; noise dedup, announced the same way, is what handles floods of those), an anchor,
 * a diff change, a producer's elision note, a verdict, and the head and tail of the block.
 */

/** The same threshold noise dedup uses: real lists of findings run to dozens, floods to hundreds. */
const MAX_ALIKE = 48;
const KEEP_FIRST = 3;
const KEEP_LAST = 2;

/** The reasons that make a line a finding: one of a list of alike findings, or a neighbour in one. */
const FINDING = GuardReason.location | GuardReason.surprise;
/** Guard reasons that may fold as one of many alike; any other reason keeps the line. */
const FOLDABLE = FINDING | GuardReason.identifier | GuardReason.entropy;

/** Where the block's head ends and its tail starts: lines there are kept whatever they say. */
export interface KeptEnds {
  readonly head: number;
  readonly tailStart: number;
}

/**
 * The guarded lines to release to the fold (1 = release) as members of a large alike list. A line is a
 * member of its mined template (`clusterOf`; -1 for a line whose template says nothing, never grouped)
 * when it may fold (see mayFold) and stands in a list of findings: a line next to it, above or below, is
 * a finding too. A template with more than 48 members in the block keeps its first three and last two;
 * the rest fold. `table` gives each distinct text's keyword families.
 *
 * A list, not one template's run: a static analyser reports a thousand findings sorted by class, so its
 * kinds interleave (`M V EI: … may expose internal representation by returning …` among `M B THROWS:
 * Method lists Throwable in its throws clause. At X.java:[line 52]`), and the first few of each kind
 * carry the news. Findings spread over a report, each with its own excerpt below it (rubocop, a
 * compiler's caret lines), stand next to no other finding: each is one to read, and stays.
 */
export function alikeGuarded(
  lines: readonly string[],
  guard: Uint8Array,
  clusterOf: Int32Array,
  table: LineTable,
  ends: KeptEnds,
): Uint8Array {
  const released = new Uint8Array(lines.length);
  // whether each distinct text may fold: 0 not yet known, 1 no, 2 yes
  const eligible = new Uint8Array(table.texts.length);
  const mayFoldAt = (i: number): boolean => {
    const reasons = guard[i]!;
    if ((reasons & FINDING) === 0 || (reasons & ~FOLDABLE) !== 0 || clusterOf[i]! < 0) return false;
    const u = table.ids[i]!;
    if (eligible[u] === 0) eligible[u] = mayFold(table, u) ? 2 : 1;
    return eligible[u] === 2;
  };
  const isFinding = (i: number): boolean => i >= 0 && i < lines.length && (guard[i]! & FINDING) !== 0;
  const members = new Map<number, number[]>();
  for (let i = ends.head; i < ends.tailStart; i++) {
    if (!mayFoldAt(i) || !(isFinding(i - 1) || isFinding(i + 1))) continue;
    const list = members.get(clusterOf[i]!);
    if (list) list.push(i);
    else members.set(clusterOf[i]!, [i]);
  }
  for (const list of members.values()) {
    if (list.length <= MAX_ALIKE) continue;
    for (let k = KEEP_FIRST; k < list.length - KEEP_LAST; k++) released[list[k]!] = 1;
  }
  return released;
}

/**
 * Whether a guarded line may fold as one of many alike: no strong failure word, not a verdict, not a
 * stack frame (a trace is one failure's context, kept whole however long: see error-context.ts).
 */
function mayFold(table: LineTable, u: number): boolean {
  const line = table.texts[u]!;
  return !hasStrongSignal(line, table.keywords[u]!) && !isVerdictText(table, u) && !isFrame(line);
}
