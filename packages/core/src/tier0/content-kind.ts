import type { ContentKind } from '@distil/contract';

/**
 * Content-kind detection when the caller gives none. Cheap: it looks at the first characters and at a
 * sample of at most {@link SAMPLE_LINES} lines (the head, plus evenly spaced lines after it), never at the
 * whole text, and it never parses. Signals, strongest first:
 * - json: the text starts with `{` or `[` and ends with `}` or `]` (JSON Lines — one object per line — is
 *   a log: it is a stream of records, and a whole-text parse would fail);
 * - diff: `diff --git`, `--- a/` + `+++ b/`, or `@@ -1,2 +1,2 @@` hunk headers;
 * - log: most sampled lines start with a timestamp or carry a level word (`INFO`, `WARN`, `ERROR`, …);
 * - source: lines that read like code (`import`, `def`, `class`, `function`, `const`, braces and
 *   semicolons at line ends, decorators) dominate;
 * - doc: prose — half the lines or more are sentences (six or more words, no code or path punctuation)
 *   or Markdown headings, lists and quotes;
 * - tool_output: everything else (command output, test runs, compiler diagnostics, listings).
 */

/** How many lines the detector looks at, at most. */
export const SAMPLE_LINES = 200;

const TIMESTAMP_START =
  /^\s*[[(]?(?:\d{4}[-/.]\d\d[-/.]\d\d[T ]?\d\d:\d\d|\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{6} \d{6}|\d{8}[-T ]\d\d:?\d\d|\d{10,13}\b)/;
const LEVEL =
  /(?:^|[\s[|(])(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|SEVERE)(?:[\s\]|:)]|$)/;
const DIFF_LINE =
  /^(?:diff --git |--- a\/|\+\+\+ b\/|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|index [0-9a-f]{7,}\.\.[0-9a-f]{7,})/;
const CODE_LINE =
  /^\s*(?:import\s|from\s+\S+\s+import\s|export\s|def\s|class\s|function\s|async\s+function|const\s|let\s|var\s|return\b|if\s*\(|for\s*\(|while\s*\(|#include\s|package\s|public\s|private\s|protected\s|fn\s|func\s|use\s|@\w+|\}\s*(?:else|catch|finally)?|elif\s|else:|try:|except\b)|[;{]\s*$|^\s*\/\/|^\s*\/\*|^\s*\*\s|^\s*#\s*(?:!|include|define)/;
/** `12:5`: a line or clock position — diagnostics and logs, not prose. */
const POSITION = /\d:\d/;
/** Markdown structure: headings, list items, quotes. */
const MARKDOWN_LINE = /^(?:#{1,6} \S|\s*[-*+] \S|\s*\d+\. \S|> \S)/;
/** A sentence: six or more plain words, no code or path punctuation. */
const SENTENCE = /^(?=(?:[^A-Za-z]*[A-Za-z]{2,}[^A-Za-z]+){5}[^A-Za-z]*[A-Za-z]{2,})[^/\\=<>{}[\]|$@#;_]*$/;

/** Guesses what a block of text is (see the module comment for the rules). */
export function detectKind(text: string): ContentKind {
  const start = firstNonSpace(text);
  if (start < 0) return 'tool_output';
  const first = text.charCodeAt(start);
  const end = lastNonSpace(text);
  const last = text.charCodeAt(end);
  const sample = sampleLines(text);
  if ((first === 123 && last === 125) || (first === 91 && last === 93)) {
    // One JSON document, or JSON Lines (several lines each a whole object): the latter is a log stream.
    const objectLines = sample.filter((l) => /^\s*\{.*\}\s*$/.test(l)).length;
    return sample.length > 2 && objectLines >= sample.length * 0.8 ? 'log' : 'json';
  }
  if (sample.length === 0) return 'tool_output';
  let diff = 0;
  let stamped = 0;
  let levelled = 0;
  let code = 0;
  let prose = 0;
  let markdown = 0;
  let nonEmpty = 0;
  for (const line of sample) {
    if (line.trim().length === 0) continue;
    nonEmpty++;
    if (DIFF_LINE.test(line)) diff++;
    if (TIMESTAMP_START.test(line)) stamped++;
    if (LEVEL.test(line)) levelled++;
    if (CODE_LINE.test(line)) code++;
    if (MARKDOWN_LINE.test(line)) markdown++;
    else if (line.length >= 40 && !POSITION.test(line) && SENTENCE.test(line)) prose++;
  }
  if (nonEmpty === 0) return 'tool_output';
  if (diff >= 2 || (diff >= 1 && /^(?:diff --git |--- )/.test(text.slice(start, start + 16)))) return 'diff';
  if (stamped >= nonEmpty * 0.5 || levelled >= nonEmpty * 0.5) return 'log';
  if (code >= nonEmpty * 0.4) return 'source';
  if (prose + markdown >= nonEmpty * 0.5 && prose >= 1) return 'doc';
  return 'tool_output';
}

function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 32) return i;
  return -1;
}

function lastNonSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (text.charCodeAt(i) > 32) return i;
  return -1;
}

/** Up to SAMPLE_LINES lines: the first half from the head, the rest spread over the text. */
function sampleLines(text: string): string[] {
  const out: string[] = [];
  const head = SAMPLE_LINES / 2;
  let pos = 0;
  while (out.length < head && pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    out.push(text.slice(pos, Math.min(end, pos + 2000)));
    pos = end + 1;
  }
  if (pos >= text.length) return out;
  const rest = text.length - pos;
  const step = rest / (SAMPLE_LINES - head);
  for (let k = 0; k < SAMPLE_LINES - head; k++) {
    // The line that starts after offset pos + k·step.
    const at = text.indexOf('\n', Math.floor(pos + k * step));
    if (at < 0 || at + 1 >= text.length) break;
    const nl = text.indexOf('\n', at + 1);
    const end = nl < 0 ? text.length : nl;
    out.push(text.slice(at + 1, Math.min(end, at + 1 + 2000)));
  }
  return out;
}
