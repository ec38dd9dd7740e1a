import { DECISION_MARKER } from '@distil/contract';
import { Keyword, lineKeywords } from '../guard/keywords.js';
import type { LineTable } from '../guard/line-table.js';

/**
 * Verdict lines carry a run's outcome: test summaries, build results, exit statuses. They are always
 * kept and exempt from noise dedup (spec/threat-model.txt, decoy_verdict_flood: that exemption is why a
 * flood of fake verdicts denies savings rather than hiding the real one).
 */
const VERDICT = new RegExp(
  [
    // "3 failed, 10 passed in 2.1s", "14 passing (2s)": a count followed by more of the summary, not "shard 7 failed:"
    String.raw`\b\d+ (?:passed|failed|failing|passing|errors?|skipped|pending|broken)(?=\s*(?:,|$|\(|in \d|and\b|\|))`,
    String.raw`^\s*(?:=+|-+)?\s*(?:\d+ (?:passed|failed)|short test summary|FAILURES|ERRORS)\b`,
    String.raw`\bTests? (?:run|Suites|Files)?:\s*\d+`,
    String.raw`\b(?:Tests run|Failures|Errors):\s*\d+,`,
    String.raw`\btest result: (?:ok|FAILED)\b`,
    String.raw`\bBUILD (?:SUCCESS|FAILURE|FAILED|SUCCESSFUL)\b`,
    String.raw`\b(?:FAILED|OK) \((?:failures|errors|tests?)[=\s]`,
    String.raw`\bRan \d+ tests? in\b`,
    String.raw`\b(?:Process completed|exited|finished) with (?:exit )?(?:code|status) \d+`,
    String.raw`The command ".*" exited with \d+`,
    String.raw`^\s*(?:FAIL|FAILED|PASS|ok|not ok)\s+\S`,
    String.raw`\bnpm ERR! code\b`,
    String.raw`\b(?:Done|Finished|Completed) in \d`,
    // package managers' outcome: what was installed and what audit found
    String.raw`\badded \d+ packages?\b|\b\d+ vulnerabilit(?:y|ies)\b|\bfound 0 vulnerabilities\b|^Successfully installed \S`,
    // pytest's header of each failure section: `____ test_name ____`
    String.raw`^_{3,} \S.* _{3,}$`,
  ].join('|'),
);

// The one branch of VERDICT whose words are too common to gate on (keywords.ts, VERDICT_SUMMARY).
const STATUS_FIRST = /^\s*(?:FAIL|FAILED|PASS|ok|not ok)\s+\S/;

// Every verdict pattern needs one of these words; most log lines have none, and this test is cheap.
const VERDICT_WORD =
  /pass|fail|ok\b|OK|err|test|build|ran |exit|done|finish|complet|vulnerab|added|install|skipped|pending|broken|___/i;

/**
 * Whether a line carries a decision marker or a run's verdict. `keywords`: the line's lineKeywords, when
 * the caller has them already (the patterns only run on a line that holds their keywords).
 */
export function isVerdict(line: string, keywords: number = lineKeywords(line)): boolean {
  if (line.includes(DECISION_MARKER)) return true;
  if ((keywords & Keyword.verdict) === 0) return false;
  const summary = (keywords & Keyword.verdictSummary) !== 0 || STATUS_FIRST.test(line);
  return summary && VERDICT_WORD.test(line) && VERDICT.test(line);
}

/** isVerdict of distinct text `u` of a block's line table, decided once per text (LineTable.verdicts). */
export function isVerdictText(table: LineTable, u: number): boolean {
  let known = table.verdicts[u]!;
  if (known === 0) {
    known = isVerdict(table.texts[u]!, table.keywords[u]) ? 2 : 1;
    table.verdicts[u] = known;
  }
  return known === 2;
}
