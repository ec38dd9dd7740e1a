/**
 * Surprise: the incongruent detail that decides an agent's next action (spec: salience protection,
 * "surprise_lines"). Error, failure, timeout and anomaly lines, and the changed lines of a unified diff,
 * are kept whatever else the block holds.
 */

// Words that, standing alone, say something went wrong. Word-bounded so "errorformat" or "failover"
// do not fire; case-insensitive because tools print ERROR, Error and error alike.
const SURPRISE = new RegExp(
  [
    String.raw`\b(?:errors?|err!?|fatal|failed|failures?|fail|failing|exceptions?|traceback|panic(?:ked)?|abort(?:ed)?|crash(?:ed)?|segfault|segmentation fault|core dumped)\b`,
    String.raw`\b(?:timed? ?out|timeout|deadline exceeded|refused|denied|unauthori[sz]ed|forbidden|unreachable|not found|no such file|cannot|can't|could not|couldn't|unable to|missing|undefined reference|unresolved|invalid|illegal|unexpected|mismatch|conflict|broken|violation|rejected|killed|oomkilled|crashloopbackoff|evicted|backoff|unhealthy|degraded|anomal(?:y|ies|ous))\b`,
    String.raw`\b(?:assert(?:ion)?(?:error)?|expected .{0,80} (?:but )?(?:got|was|received)|exit(?:ed)? (?:code|status|with)\s*[1-9]\d*|returned non-zero|non-zero exit|stack ?trace|caused by)\b`,
    String.raw`^\s*(?:E |E\d{3,}|error\[|warning\[|\*\* |FAIL\b|FAILED\b|✗|✘|✕|×|❌|●|!!|\[-\])`,
  ].join('|'),
  'i',
);

// "Failures: 0, Errors: 0" and "0 failed" report that nothing went wrong.
const ZERO_COUNTS =
  /\b(?:0 (?:failed|failures?|errors?|failing|broken)|(?:failures?|errors?|failed|failing)\s*[:=]\s*0)\b/gi;

/** Whether a line reports an error, failure, timeout or anomaly (zero counts of failures are not one). */
export function isSurprising(line: string): boolean {
  if (!SURPRISE.test(line)) return false;
  ZERO_COUNTS.lastIndex = 0;
  return !ZERO_COUNTS.test(line) || SURPRISE.test(line.replace(ZERO_COUNTS, ''));
}

/** Whether a line is a changed line of a unified diff (`+x`/`-x`, not the `+++`/`---` file headers). */
export function isDiffChange(line: string, kind: string): boolean {
  if (kind !== 'diff') return false;
  const c = line.charCodeAt(0);
  if (c !== 43 /* + */ && c !== 45 /* - */) return false;
  return !(line.startsWith('+++ ') || line.startsWith('--- '));
}

/** Whether a line is a hunk or file header of a unified diff. */
export function isDiffHeader(line: string): boolean {
  return (
    line.startsWith('@@ ') ||
    line.startsWith('diff --git ') ||
    line.startsWith('+++ ') ||
    line.startsWith('--- ')
  );
}
