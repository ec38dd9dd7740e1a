/**
 * A diagnostic names a place in the code: `src/app.ts:12:5`, `Foo.java:61`, `(file.py, line 3)`,
 * `[L296]`. Compiler, linter and test-runner findings all carry one, and an agent acts on each of them,
 * so a line with a location is kept however many alike lines surround it.
 */
const LOCATION =
  /[\w./\\-]\.[A-Za-z]\w{0,9}:\d+(?::\d+)?\b|[\w./\\-]\.[A-Za-z]\w{0,9}\(\d+(?:,\d+)?\)|\bline \d+(?:, col(?:umn)? \d+)?\b|\[L\d+\]|:\d+:\d+:/;

// Every location form has a digit after ':' or '(', or says "line N" or "[LN": a cheap first test.
const LOCATION_HINT = /[:(]\d|line \d|\[L\d/;
// Informational log levels, after up to five timestamp fields (`Apr 12 14:34:27.125 - 0m0s DEBUG`): a
// location in an INFO line is a progress report, not a finding.
const INFO_LEVEL = /^\W{0,3}(?:\S+\s+){0,5}\W?(?:INFO|DEBUG|TRACE|FINE|FINER|VERBOSE|NOTICE)\b/;
/**
 * The same in structured logs, where every record names its caller (`"caller":"pkg/store.go:361"`,
 * klog's `I0304 10:09:13.390 1 handler.go:71]`): a level field of JSON or logfmt records, or klog's
 * `I` prefix (info; its W, E and F lines stay findings).
 */
const STRUCTURED_INFO =
  /^I\d{4} \d\d:\d\d:\d\d|["']?\b(?:level|lvl|severity)["']?\s*[:=]\s*["']?(?:info|debug|trace|notice)\b/i;

/**
 * Whether a line points at a location in source (file and line, or line and column) as a finding:
 * lines logged at an informational level are not findings, whatever they mention.
 */
export function hasLocation(line: string): boolean {
  return (
    LOCATION_HINT.test(line) && LOCATION.test(line) && !INFO_LEVEL.test(line) && !STRUCTURED_INFO.test(line)
  );
}
