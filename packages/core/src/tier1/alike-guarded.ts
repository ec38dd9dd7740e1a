import { GuardReason } from '../guard/guard-lines.js';
import type { LineTable } from '../guard/line-table.js';
import { hasStrongSignal } from '../guard/surprise.js';
import { isVerdict } from './verdicts.js';

/**
 * Repeated guarded lines fold (issue #16): a linter that prints 330 warnings of one template
 * (`src/env.js:132:41: 'x' is flagged by eqeqeq. [Warning/no-useless-escape]`) guards every one of them
 * as a source location, and pinned lines are exempt from noise dedup, so all 330 stayed. When more than
 * {@link MAX_ALIKE} guarded lines of a block share one mined template, its first {@link KEEP_FIRST} and
 * last {@link KEEP_LAST} stay and the rest fold; the stub over such a run says the lines are like the
 * kept one above (fold.ts), and the handle gives every one of them back.
 *
 * What never folds this way: a line with a strong failure word (an error must not go behind a stub as
 * "more of the same"; noise dedup, announced the same way, is what handles floods of those), an anchor,
 * a diff change, a producer's elision note, a verdict, and the head and tail of the block.
 */

/** The same threshold noise dedup uses: real lists of findings run to dozens, floods to hundreds. */
const MAX_ALIKE = 48;
const KEEP_FIRST = 3;
const KEEP_LAST = 2;

/** The reasons that make a line one of a run of alike findings. */
const FINDING = GuardReason.location | GuardReason.surprise;
/** Guard reasons that may fold as one of many alike; any other reason keeps the line. */
const FOLDABLE = FINDING | GuardReason.identifier | GuardReason.entropy;

/** Where the block's head ends and its tail starts: lines there are kept whatever they say. */
export interface KeptEnds {
  readonly head: number;
  readonly tailStart: number;
}

/**
 * The guarded lines to release to the fold (1 = release) as members of a large alike run: per mined
 * template (`clusterOf`, -1 for a line whose template says nothing and is never grouped), the eligible guarded lines beyond its first three and last two, when more
 * than 48 are eligible. `table` gives each distinct text's keyword families.
 */
export function alikeGuarded(
  lines: readonly string[],
  guard: Uint8Array,
  clusterOf: Int32Array,
  table: LineTable,
  ends: KeptEnds,
): Uint8Array {
  const released = new Uint8Array(lines.length);
  const byCluster = new Map<number, number[]>();
  // whether each distinct text may fold: 0 not yet known, 1 no, 2 yes
  const eligible = new Uint8Array(table.texts.length);
  for (let i = ends.head; i < ends.tailStart; i++) {
    const reasons = guard[i]!;
    if ((reasons & FINDING) === 0 || (reasons & ~FOLDABLE) !== 0 || clusterOf[i]! < 0) continue;
    const u = table.ids[i]!;
    if (eligible[u] === 0) eligible[u] = mayFold(lines[i]!, table.keywords[u]!) ? 2 : 1;
    if (eligible[u] !== 2) continue;
    const list = byCluster.get(clusterOf[i]!);
    if (list) list.push(i);
    else byCluster.set(clusterOf[i]!, [i]);
  }
  for (const members of byCluster.values()) {
    if (members.length <= MAX_ALIKE) continue;
    for (let k = KEEP_FIRST; k < members.length - KEEP_LAST; k++) released[members[k]!] = 1;
  }
  return released;
}

/** Whether a guarded line may fold as one of many alike: no strong failure word, not a verdict. */
function mayFold(line: string, keywords: number): boolean {
  return !hasStrongSignal(line, keywords) && !isVerdict(line, keywords);
}
