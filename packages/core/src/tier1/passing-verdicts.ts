import { DECISION_MARKER } from '@distil/contract';
import { lineShape } from '../guard/line-shape.js';
import type { LineTable } from '../guard/line-table.js';
import { joinedNames, replaceNames } from '../guard/names.js';
import { isVerdictText } from './verdicts.js';

/**
 * Passing verdicts summarised, failing ones verbatim (issue #16). Surefire prints `Tests run: 1,
 * Failures: 0, Errors: 0` once per test class, jest `PASS file` once per file: thousands of verdict
 * lines, each saying the same thing — nothing went wrong here — and all of them were kept as verdicts.
 * A passing verdict whose shape the block repeats is routine: the first and the last of its shape stay
 * (the last is usually the run's total) and the others fold. A failing verdict, a passing one of a shape
 * seen at most twice, and every decision marker stay as before.
 */

/** Counts of nothing: "Failures: 0", "0 failed", "errors=0". */
const ZERO_COUNTS =
  /\b(?:0 (?:failed|failures?|errors?|failing|broken)|(?:failures?|errors?|failed|failing|broken)\s*[:=]\s*0)\b/gi;
/** What makes a verdict a failing one, once zero counts and names are gone. */
const TROUBLE = /fail|error|broken|not ok|✗|✘|✕|✖|×/i;

/** A verdict's shape must repeat more often than this for its passing members to fold. */
const ROUTINE_VERDICTS = 2;

/** Whether a verdict line reports that nothing failed. */
export function isPassingVerdict(line: string): boolean {
  if (line.includes(DECISION_MARKER)) return false;
  // a dotted name (`com.acme.ErrorHandlerTest`) or a path names a place, not an outcome
  return !TROUBLE.test(replaceNames(line.replace(ZERO_COUNTS, ''), joinedNames, () => ''));
}

/**
 * The routine passing verdicts of a block (1 = fold): members of a shape of passing verdicts that occurs
 * more than twice, but its first and its last. `table` gives each distinct text's keyword families.
 */
export function routinePassingVerdicts(lines: readonly string[], table: LineTable): Uint8Array {
  const routine = new Uint8Array(lines.length);
  // whether each distinct text is a passing verdict: 0 not yet known, 1 no, 2 yes
  const passing = new Uint8Array(table.texts.length);
  const byShape = new Map<string, number[]>();
  for (let i = 0; i < lines.length; i++) {
    const u = table.ids[i]!;
    if (passing[u] === 0) {
      const line = lines[i]!;
      passing[u] = isVerdictText(table, u) && isPassingVerdict(line) ? 2 : 1;
    }
    if (passing[u] !== 2) continue;
    const shape = lineShape(lines[i]!);
    const members = byShape.get(shape);
    if (members) members.push(i);
    else byShape.set(shape, [i]);
  }
  for (const members of byShape.values()) {
    if (members.length <= ROUTINE_VERDICTS) continue;
    for (let k = 1; k < members.length - 1; k++) routine[members[k]!] = 1;
  }
  return routine;
}
