/** Characters of one line the signals look at. */
const MAX_ANALYSED = 16_384;

/** ANSI/VT100 escape sequences (colours, cursor moves, OSC titles) as CI logs print them. */
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_=>])/g;
/**
 * A runner's per-line prefix ending in a timestamp: GitHub Actions' `2022-06-22T18:46:21.2979173Z `,
 * optionally after job and step names (`build\tstep\t<time> `), or a bracketed `[12:01:02] `. Sticky, so
 * that a match leaves its end in lastIndex and the prefix is cut off with a slice, no match array built.
 */
const LEADING_TIME =
  /^(?:[^\n]{0,80}?\t)?\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s|^\[\d\d:\d\d:\d\d(?:[.,]\d+)?\]\s/y;

/**
 * The line as a reader sees it: terminal escape codes and the runner's timestamp prefix removed, so
 * patterns anchored at the start of a message still match. Signals are computed on this view; the bytes
 * sent keep everything, so a kept line is exactly the line the tool printed.
 */
export function analysisView(line: string): string {
  // A line of megabytes (a minified bundle, a base64 blob) is judged by its two ends: every signal
  // stays cheap, and no pattern meets input larger than it was written for.
  const bounded =
    line.length > MAX_ANALYSED
      ? `${line.slice(0, MAX_ANALYSED / 2)} … ${line.slice(-MAX_ANALYSED / 2)}`
      : line;
  const plain = bounded.includes('\u001b') ? bounded.replace(ESCAPES, '') : bounded;
  // the prefix starts with a digit or '[', or follows a tab within the first 80 characters
  const c = plain.charCodeAt(0);
  // a tab among the first 81 characters: searched backwards from there, so a long line is not read whole
  const candidate = (c >= 48 && c <= 57) || c === 91 || plain.lastIndexOf('\t', 80) >= 0;
  if (!candidate) return plain;
  LEADING_TIME.lastIndex = 0;
  return LEADING_TIME.test(plain) ? plain.slice(LEADING_TIME.lastIndex) : plain;
}

/**
 * The line without the runner's timestamp prefix (see LEADING_TIME), its other bytes — colour codes
 * included — untouched: two lines that differ only in when the runner printed them say the same thing.
 */
export function withoutRunnerTime(line: string): string {
  LEADING_TIME.lastIndex = 0;
  return LEADING_TIME.test(line) ? line.slice(LEADING_TIME.lastIndex) : line;
}
