/**
 * Surprise: the incongruent detail that decides an agent's next action (spec: salience protection,
 * "surprise_lines"). Error, failure, timeout and anomaly lines, and the changed lines of a unified diff,
 * are kept whatever else the block holds.
 */

import { Keyword, lineKeywords } from './keywords.js';
import { dottedNames, hasDottedName, names, replaceNames } from './names.js';

// Words that, standing alone, say something went wrong. Word-bounded so "errorformat" or "failover"
// do not fire; case-insensitive because tools print ERROR, Error and error alike.
// The strong signal is STRONG_WORDS or STRONG_START: two patterns, so that the words can be gated by a
// keyword scan (keywords.ts) while the line-start markers, which hold no keyword, are tested on their own.
const STRONG_WORDS = new RegExp(
  [
    String.raw`\b(?:errors?|err!?|fatal|failed|failures?|fail|failing|exceptions?|traceback|panic(?:ked)?|abort(?:ed)?|crash(?:ed)?|segfault|segmentation fault|core dumped)\b`,
    String.raw`\b(?:timed? ?out|timeout|deadline exceeded|refused|denied|unauthori[sz]ed|forbidden|unreachable|no such file|undefined reference|killed|oomkilled|crashloopbackoff|evicted|backoff|unhealthy)\b`,
    String.raw`\b(?:assert(?:ion)?(?:error)?|expected .{0,80} (?:but )?(?:got|was|received)|exit(?:ed)? (?:code|status|with)\s*[1-9]\d*|returned non-zero|non-zero exit|stack ?trace|caused by)\b`,
  ].join('|'),
  'i',
);
const STRONG_START = /^\s*(?:E |E\d{3,}|error\[|warning\[|\*\* |FAIL\b|FAILED\b|✗|✘|✕|✖|×|❌|●|!!|\[-\])/i;
// A test runner's passing verdict at the start of a message (node:test and mocha `✔`, jest `✓`, TAP
// `ok 12`, go `--- PASS`, jest's `PASS file`): the line says a test passed, and its words are the test's
// name — "✔ rejects a missing file" reports a pass, not a missing file. The mirror of STRONG_START.
const PASS_START = /^\s*(?:✔|✓|√|☑|✅|ok \d+\b|--- PASS\b|PASS(?:ED)?\b)/;
// Words that report trouble in a tool's own output, but are everyday vocabulary in application logs.
const WEAK =
  /\b(?:not found|not defined|undefined|not recognized|unknown (?:option|flag|command|argument)|no such (?:option|command)|cannot|can't|could not|couldn't|unable to|missing|unresolved|invalid|illegal|unexpected|mismatch|conflict|broken|violation|rejected|degraded|anomal(?:y|ies|ous))\b/i;
// A log line's own level: below WARN, an application is narrating, not failing.
const QUIET_LEVEL = /^\W{0,3}(?:\S+\s+){0,5}?\[?(DEBUG|TRACE|FINE|FINER|VERBOSE|INFO|NOTICE)\]?[\s:]/;

// Dotted names (a logger, package or module: `uvicorn.error`, `app.errors.handler`) and paths
// (`org.acme.error.X`, `src/errors/index.ts`, `/tmp/fail.log`) name a place: see names.ts.
// A name whose last part is a thrown class: `IOException`, `AssertionError`, `ParseFailure`.
const THROWN = /(?:Error|Exception|Failure|Fault|Panic)\W*$/;

// "Failures: 0, Errors: 0" and "0 failed" report that nothing went wrong.
const ZERO_COUNTS =
  /\b(?:0 (?:failed|failures?|errors?|failing|broken)|(?:failures?|errors?|failed|failing)\s*[:=]\s*0)\b/gi;

/** Whether `line` holds a strong signal; `keywords` are its {@link lineKeywords}. */
function isStrong(line: string, keywords: number): boolean {
  return ((keywords & Keyword.strong) !== 0 && STRONG_WORDS.test(line)) || STRONG_START.test(line);
}

/**
 * Whether a line holds a strong trouble signal (an error, failure or timeout word, or a failure marker
 * at its start), as opposed to only weak, everyday words. `keywords`: its {@link lineKeywords}.
 */
export function hasStrongSignal(line: string, keywords: number = lineKeywords(line)): boolean {
  return isStrong(line, keywords);
}

/**
 * The weak trouble word a line holds, lower-cased ("missing", "could not"), or undefined when it holds
 * none. `keywords`: its {@link lineKeywords}.
 */
export function weakWord(line: string, keywords: number = lineKeywords(line)): string | undefined {
  if ((keywords & Keyword.weak) === 0) return undefined;
  return WEAK.exec(line)?.[0].toLowerCase();
}

/** Whether `line` holds a weak signal; `keywords` are its {@link lineKeywords}. */
function isWeak(line: string, keywords: number): boolean {
  return (keywords & Keyword.weak) !== 0 && WEAK.test(line);
}

/**
 * Whether a line reports an error, failure, timeout or anomaly (zero counts of failures and a passing
 * test's name are not one).
 * `keywords`: the line's {@link lineKeywords}, when the caller has them already.
 */
export function isSurprising(line: string, keywords: number = lineKeywords(line)): boolean {
  const strong = isStrong(line, keywords);
  if (!strong && !isWeak(line, keywords)) return false;
  if (PASS_START.test(line)) return false;
  const level = QUIET_LEVEL.exec(line)?.[1];
  // DEBUG and TRACE lines never surprise; an INFO line only with a strong word ("[INFO] 3 errors") that
  // is not part of a dotted name: uvicorn logs every access as `INFO [uvicorn.error] …`.
  if (level !== undefined && (level !== 'INFO' || !strong)) return false;
  if (level === 'INFO' && hasDottedName(line)) {
    const plain = replaceNames(line, dottedNames, () => '');
    if (!isStrong(plain, lineKeywords(plain))) return false;
  }
  // A strong word only inside a name (`Running org.assertj.core.error.ShouldBeEqual_Test`,
  // `src/errors/index.ts`) names a place, not a finding: the line says nothing once its names are gone.
  // A name that ends in a thrown class (`java.io.IOException`, `pkg.errors.ParseError`) is the finding.
  if (strong && (hasDottedName(line) || line.includes('/'))) {
    const plain = replaceNames(line, names, (name) => (THROWN.test(name) ? name : ' '));
    if (!isStrong(plain, lineKeywords(plain)) && !isWeak(plain, lineKeywords(plain))) return false;
  }
  if (!strong) return true;
  ZERO_COUNTS.lastIndex = 0;
  if (!ZERO_COUNTS.test(line)) return true;
  const rest = line.replace(ZERO_COUNTS, '');
  return isStrong(rest, lineKeywords(rest)) || isWeak(line, keywords);
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
