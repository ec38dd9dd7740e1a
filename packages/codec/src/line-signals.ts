/**
 * The line-level signals every keep model starts from: precompiled patterns for error keywords, verdicts,
 * structured data and debug noise, plus one allocation-free pass that counts character classes.
 *
 * Spec: "Keep-model codec" in spec/compression-techniques.txt — the rules fire on error keywords, structured
 * data markers (DECISION:, key:value lines, pipe tables), digit density and debug-noise keywords. The salience
 * rules and the logistic features share these patterns so the learned model sees what the rules see.
 */

import { NON_ASCII } from './keyword-scan.js';
import { SIGNAL_KEYWORDS, SignalKeyword } from './signal-keywords.js';

/**
 * Words that announce that something went wrong. `error` and `exception` match inside identifiers too
 * (`TypeError`, `NullPointerException`), the rest only as whole words, so `fail` does not fire on `failover`.
 */
export const ERROR_PATTERN: RegExp = new RegExp(
  [
    'error',
    'exception',
    // One group of whole words: irregexp tries a single alternation per position, 1.6× faster measured
    // here than one `\b(…)\b` branch per family.
    String.raw`\b(?:${[
      'fail|failed|failing|failure|failures|fatal|panic|panicked|traceback|abort|aborted',
      'assert|assertion|timeout|timed out|refused|denied|forbidden|unauthorized|not found',
      'no such file|segmentation fault|segfault|core dumped|killed|crashed|unhandled|undefined reference',
      "cannot|can't|could not|unable to|unresolved|unexpected|invalid|conflict|deadlock",
      'CrashLoopBackOff|OOMKilled|ImagePullBackOff|ErrImagePull|Evicted|BackOff',
    ].join('|')})\b`,
    // A non-zero exit: "exit code 2", "exited with code 1", "exit status: 127", "non-zero exit status".
    String.raw`\bexit(?:ed)?(?: with)?(?: code| status)\s*[:=]?\s*-?[1-9]`,
    String.raw`\bnon-?zero exit`,
    // Python's "E   assert x == y" and a bare "E " line in pytest failures.
    String.raw`^E\s{2,}\S`,
  ].join('|'),
  'i',
);

/**
 * Lines that state an outcome: test and build summaries. These answer "did it work?", which is exactly
 * what the agent decides on next.
 */
export const VERDICT_PATTERN: RegExp = new RegExp(
  [
    String.raw`\b\d+ (?:passed|failed|failing|passing|errors?|skipped|pending|succeeded|broken|xfailed|xpassed)\b`,
    String.raw`^\s*(?:PASS|FAIL|FAILED|PASSED|ERROR|OK|FAILURES?)(?:\b|$)`,
    String.raw`\bBUILD (?:SUCCESS(?:FUL)?|FAIL(?:URE|ED)?)\b`,
    String.raw`^\s*(?:Tests?|Test Suites|Test Files|Snapshots|Suites)\s*:\s`,
    String.raw`^\s*Ran \d+ tests?\b`,
    String.raw`\bTests run: \d+`,
    // pytest's section rules that open the failure report.
    String.raw`^[=_-]{3,} ?(?:FAILURES|ERRORS|short test summary info)\b`,
    String.raw`\b(?:All|No) (?:tests|checks) (?:passed|failed)\b`,
  ].join('|'),
);

/**
 * Debug noise: log levels below INFO, package-manager chatter, progress reports. A line that matches is
 * almost never what an agent acts on.
 */
export const DEBUG_PATTERN: RegExp = new RegExp(
  [
    String.raw`\b(?:DEBUG|TRACE|VERBOSE)\b`,
    String.raw`^\s*(?:Downloading|Downloaded|Collecting|Using cached|Requirement already satisfied|Installing collected|Fetching|Resolving|Unpacking|Preparing|Building wheel|Progress|Receiving objects|Resolving deltas|Counting objects|Compressing objects|Enumerating objects|remote: (?:Counting|Compressing|Enumerating))\b`,
    String.raw`^\s*(?:npm (?:http|timing|sill|verb)|\[INFO\] Download(?:ing|ed)|Get:\d+|Hit:\d+|Ign:\d+)\b`,
    String.raw`##\[debug\]`,
    // Progress bars: runs of block characters, an arrow of `=`, a bracketed bar, or a percentage followed
    // by a bar. A plain run of `=` or `-` is a section rule (pytest, maven), not progress. An arrow is
    // sought from the start of its run of `=` only: from every `=` of a long rule, `={3,}` read to the
    // rule's end before the `>` was missing (quadratic; the test answers the same).
    '[#█▉▊▋▌▍▎▏■━]{10,}',
    '(?<!=)={3,}>',
    String.raw`\[[=#>.\- ]{10,}\]`,
    String.raw`\d{1,3}(?:\.\d+)?%\s*[|\[]`,
  ].join('|'),
);

/*
 * The patterns below write "spaces, perhaps a mark, spaces" as `\s*(?:[:-]\s*)?`, never as
 * `\s*[:-]?\s*`: the two match the same texts, but without the mark the second can split a run of
 * spaces between its two `\s*` in every way, which is quadratic in the run when the rest of the pattern
 * fails after it (a line of 8,000 spaces and a letter took it 50 ms).
 */

/**
 * A line that is only a timestamp (optionally with a log level of INFO or lower), e.g. a heartbeat. Such
 * lines carry no content of their own.
 */
export const TIMESTAMP_ONLY_PATTERN: RegExp =
  /^\s*[[(]?\d{2,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?[\])]?\s*(?:(?:INFO|DEBUG|TRACE)\b\s*(?:[:-]\s*)?)?$|^\s*[[(]?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?[\])]?\s*$/;

/**
 * `key: value` or `key = value` with a short identifier-like key: config dumps, kubectl describe, HTTP
 * headers, test reports. Log levels are not keys (`INFO: …`), and a statement ending in `;` or `{` is code.
 */
export const KEY_VALUE_PATTERN: RegExp =
  /^\s*(?:[-*]\s*)?["']?(?!(?:INFO|DEBUG|TRACE|NOTE|info|debug|trace|note)\b)[A-Za-z_][\w .\-/]{0,40}["']?(?::\s+|\s*=\s*)(?=\S)(?!.*[;{]\s*$)/;

/**
 * A leading timestamp (ISO 8601, `YYYY/MM/DD hh:mm:ss`, bracketed or not), as CI runners and loggers prefix
 * every line with one. The rules look past it: it says when, not what.
 */
export const LEADING_TIMESTAMP_PATTERN: RegExp =
  /^\s*[[(]?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?[\])]?\s/;

const LEVEL_ONLY = /^\s*(?:(?:INFO|DEBUG|TRACE)\b\s*(?:[:-]\s*)?)?$/;

/**
 * Whether a line is only a timestamp, perhaps with a low log level: `body` is the line after
 * {@link withoutTimestamp}, `digits` the digit count of `body`.
 */
export function isTimestampOnly(line: string, body: string, digits: number): boolean {
  if (body.length !== line.length) return LEVEL_ONLY.test(body);
  return digits > 0 && TIMESTAMP_ONLY_PATTERN.test(body);
}

/** `line` without its leading timestamp; the line itself (no copy) when it has none. */
export function withoutTimestamp(line: string): string {
  const c = line.charCodeAt(0);
  // Cheap guard first: a timestamp starts with a digit, a bracket or whitespace.
  if (!((c >= 48 && c <= 57) || c === 91 || c === 40 || c === 32 || c === 9)) return line;
  const m = LEADING_TIMESTAMP_PATTERN.exec(line);
  return m === null ? line : line.slice(m[0].length);
}

/** Character-class counts of one line, produced by {@link readLine} without allocating. */
export interface CharacterCounts {
  /** Characters that are not whitespace. */
  nonSpace: number;
  digits: number;
  letters: number;
  upper: number;
  /** `|` characters: two or more suggest a pipe table row. */
  pipes: number;
}

/*
 * Character counting without a branch per class: each ASCII character adds its entries of two tables to
 * two running sums that each pack two counters (the low one below PACK, the high one above it), so a line
 * costs two table loads and two additions per character. Exact while a line is shorter than PACK
 * characters; longer lines (never seen after the pipeline bounds a line at 16 KiB) are counted in parts.
 */
const PACK = 2 ** 26;
/** non-space + PACK × digit, per ASCII code. */
const SPACE_DIGIT = new Float64Array(128);
/** letter + PACK × upper-case letter, per ASCII code. */
const LETTER_UPPER = new Float64Array(128);
for (let c = 0; c < 128; c++) {
  if (!(c === 32 || (c >= 9 && c <= 13))) SPACE_DIGIT[c] = 1;
  if (c >= 48 && c <= 57) SPACE_DIGIT[c]! += PACK;
  if (c >= 65 && c <= 90) LETTER_UPPER[c] = 1 + PACK;
  if (c >= 97 && c <= 122) LETTER_UPPER[c] = 1;
}

const SIGNAL_AUTOMATON = SIGNAL_KEYWORDS.automaton;

/**
 * One pass over `body`: counts its character classes into `out` (reused across calls, so the hot loop
 * allocates nothing) and returns the signal keywords it holds, the argument of the has… functions below
 * (the keyword scan runs in the same loop, see KeywordScanner). Letters and case are ASCII-only: a cheap
 * proxy that is exact for the log and build output this scores. Space is ASCII whitespace (space and \t
 * to \r); every character outside ASCII counts as non-space.
 */
export function readLine(body: string, out: CharacterCounts): number {
  if (body.length >= PACK) return readLongLine(body, out);
  const { classOf, delta, found } = SIGNAL_AUTOMATON;
  let state = 0;
  let words = 0;
  let spaceDigit = 0;
  let letterUpper = 0;
  let pipes = 0;
  let other = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code < 128) {
      spaceDigit += SPACE_DIGIT[code]!;
      letterUpper += LETTER_UPPER[code]!;
      if (code === 124) pipes++;
      state = delta[state + classOf[code]!]!;
      words |= found[state]!;
    } else {
      other++;
      state = 0;
      words |= NON_ASCII;
    }
  }
  const digits = Math.floor(spaceDigit / PACK);
  const upper = Math.floor(letterUpper / PACK);
  out.nonSpace = spaceDigit - digits * PACK + other;
  out.digits = digits;
  out.letters = letterUpper - upper * PACK;
  out.upper = upper;
  out.pipes = pipes;
  return words;
}

/** {@link readLine} for a line too long for the packed sums: counted in parts, scanned whole. */
function readLongLine(body: string, out: CharacterCounts): number {
  const part = emptyCounts();
  const sum = emptyCounts();
  for (let at = 0; at < body.length; at += PACK / 2) {
    readLine(body.slice(at, at + PACK / 2), part);
    sum.nonSpace += part.nonSpace;
    sum.digits += part.digits;
    sum.letters += part.letters;
    sum.upper += part.upper;
    sum.pipes += part.pipes;
  }
  Object.assign(out, sum);
  return SIGNAL_KEYWORDS.scan(body);
}

/** A fresh, zeroed counts record for {@link readLine}. */
export function emptyCounts(): CharacterCounts {
  return { nonSpace: 0, digits: 0, letters: 0, upper: 0, pipes: 0 };
}

/**
 * A pipe-table row: at least two `|` and either a leading/trailing pipe or a `---|---` separator. Markdown
 * tables and `kubectl`/`psql` output both look like this.
 */
export function isTableRow(line: string, pipes: number): boolean {
  if (pipes < 2) return false;
  const trimmed = line.trim();
  return trimmed.startsWith('|') || trimmed.endsWith('|') || /-{3,}\s*\|\s*:?-{3,}/.test(trimmed);
}

// VERDICT_PATTERN's `^\s*OK` branch, which no keyword of signal-keywords.ts covers
const OK_VERDICT = /^\s*OK/;

/** `ERROR_PATTERN.test(body)`, where `words` are the keywords {@link readLine} found in `body`. */
export function hasErrorWords(body: string, words: number): boolean {
  // 69 = 'E', 101 = 'e': the pattern's `^E\s{2,}\S` branch (case-insensitive)
  const first = body.charCodeAt(0);
  return ((words & SignalKeyword.error) !== 0 || first === 69 || first === 101) && ERROR_PATTERN.test(body);
}

/** `VERDICT_PATTERN.test(body)`, where `words` are the keywords {@link readLine} found in `body`. */
export function hasVerdict(body: string, words: number): boolean {
  return ((words & SignalKeyword.verdict) !== 0 || OK_VERDICT.test(body)) && VERDICT_PATTERN.test(body);
}

/** `DEBUG_PATTERN.test(body)`, where `words` are the keywords {@link readLine} found in `body`. */
export function hasDebugNoise(body: string, words: number): boolean {
  return (words & SignalKeyword.debug) !== 0 && DEBUG_PATTERN.test(body);
}

/**
 * `KEY_VALUE_PATTERN.test(body)`, where `words` are the keywords {@link readLine} found in `body`, except
 * a logfmt record: `time=… level=info msg=… latency_ms=6` is one event of a stream, not a property the way
 * `Image: nginx:1.25` is, and keeping every record would keep the whole log.
 */
export function isKeyValue(body: string, words: number): boolean {
  return (words & SignalKeyword.keyValue) !== 0 && KEY_VALUE_PATTERN.test(body) && !isLogfmtRecord(body);
}

/** Pairs that make a line a logfmt record rather than a setting. */
const LOGFMT_PAIRS = 3;

/** Three or more `key=value` pairs, each key a word starting the line or after a space. */
export function isLogfmtRecord(body: string): boolean {
  let pairs = 0;
  for (let at = body.indexOf('='); at > 0; at = body.indexOf('=', at + 1)) {
    let k = at - 1;
    while (k >= 0 && isKeyChar(body.charCodeAt(k))) k--;
    if (k < at - 1 && (k < 0 || body.charCodeAt(k) === 32) && ++pairs >= LOGFMT_PAIRS) return true;
  }
  return false;
}

function isKeyChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45
  );
}
