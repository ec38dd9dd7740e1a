import type { ContentKind } from '@distil/contract';
import { findLineNumbers, stripLineNumbers, withoutLineNumbers } from '../tier0/line-numbers.js';
import { splitEnvelope } from './tool-envelope.js';

const SAMPLE_LINES = 200;
const DIFF_HEADER =
  /^(?:diff --git |--- a\/|\+\+\+ b\/|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|index [0-9a-f]{7,}\.\.[0-9a-f]{7,})/;
const SOURCE_LINE =
  /^\s*(?:import\s.+from\s|import\s+[\w{*]|from\s+[\w.]+\s+import\s|export\s+(?:default\s+)?(?:async\s+)?(?:function|class|const|interface|type|enum)\b|(?:async\s+)?def\s+\w+\s*\(|class\s+\w+[\s(:{<]|(?:public|private|protected|static)\s+[\w<>[\]]+\s+\w+\s*\(|function\s+\w+\s*\(|const\s+\w+\s*=|let\s+\w+\s*=|fn\s+\w+\s*\(|func\s+\w+\s*\(|package\s+\w+;?$|#include\s*[<"]|@\w+(?:\(|$))/;
/** A shell script's own lines: its interpreter line, function definitions, and the ends of its blocks. */
const SHELL_LINE =
  /^(?:#!\/\S+|\s*(?:function\s+)?[A-Za-z_][\w-]*\s*\(\)\s*\{?\s*$|\s*(?:if|elif|while|until)\s.+;\s*(?:then|do)\s*$|\s*(?:fi|done|esac)\s*$|\s*local\s+[A-Za-z_]\w*=)/;
/** Markdown's structure: headings, list items, table rows, fences, quotes. */
const MARKDOWN_HEADING = /^#{1,6} \S/;
const MARKDOWN_LINE = /^(?:\s*(?:[-*+]|\d{1,3}[.)]) \S|\|.*\|\s*$|> )/;
const FENCE = /^\s*```/;
/** A sentence: several words of letters, not a record of fields. */
const PROSE_LINE = /^\W{0,6}[A-Za-z]\S*(?:\s+\S+){5,}/;
const LOG_LINE =
  /^(?:\S+\s+){0,3}?(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|[A-Z][a-z]{2}\s+\d{1,2}\s\d\d:\d\d|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL)\]?[\s:])/;

/**
 * Guesses what a block holds when its producer did not say, from a sample of its lines: JSON when the
 * whole text parses as an object or array, a unified diff by its headers, source code by declaration
 * lines, a log by timestamps and levels, otherwise a generic tool output. Cheap: at most a few hundred
 * lines are looked at, and JSON is only parsed when the text starts like JSON. What is judged is the
 * tool's own output: a client's wrapper (tool-envelope.ts) and a file read's line numbers are not part
 * of it, so a numbered read of a log is a log and Codex's exec header does not hide a JSON answer.
 */
export function detectKind(text: string): ContentKind {
  const { body } = splitEnvelope(text);
  const trimmed = body.trimStart();
  const jsonLike = (t: string): boolean => t.startsWith('{') || t.startsWith('[');
  if (jsonLike(trimmed) && parsesAsJson(trimmed)) return 'json';
  const lines = sampleLines(body);
  if (lines.numbered) {
    const plain = stripLineNumbers(body)?.text.trimStart();
    if (plain !== undefined && jsonLike(plain) && parsesAsJson(plain)) return 'json';
  }
  if (lines.sample.length === 0) return 'tool_output';
  let diff = 0;
  let source = 0;
  let log = 0;
  let headings = 0;
  let written = 0;
  let fenced = false;
  for (const line of lines.sample) {
    if (DIFF_HEADER.test(line)) diff++;
    else if (SOURCE_LINE.test(line) || SHELL_LINE.test(line)) source++;
    if (LOG_LINE.test(line)) log++;
    // a fenced example inside a document is part of what it says
    if (FENCE.test(line)) fenced = !fenced;
    if (MARKDOWN_HEADING.test(line) && !fenced) headings++;
    else if (fenced || FENCE.test(line) || MARKDOWN_LINE.test(line) || PROSE_LINE.test(line)) written++;
  }
  const n = lines.sample.length;
  if (diff >= 2 && startsLikeDiff(lines.sample)) return 'diff';
  if (log / n >= 0.3) return 'log';
  if (source / n >= 0.08 && source >= 3) return 'source';
  if (isDocument(headings, written, log, n)) return 'doc';
  return 'tool_output';
}

/**
 * A document someone wrote (a README, a spec, a plan in Markdown): sections under headings, and lines
 * that are list items, table rows or sentences rather than a program's records. An agent reads one for
 * what it says, any line of which may be the one it follows, so it is never folded by salience.
 */
function isDocument(headings: number, written: number, log: number, n: number): boolean {
  return headings >= 2 && (headings + written) / n >= 0.5 && log / n < 0.1;
}

/** A diff's file header within the first 4 KiB of lines. */
function startsLikeDiff(sample: readonly string[]): boolean {
  let chars = 0;
  for (const line of sample) {
    if (/^(?:diff --git |--- )/.test(line)) return true;
    chars += line.length + 1;
    if (chars >= 4096) return false;
  }
  return false;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The first non-blank lines (line numbers cut off), and whether the text carried a gutter. */
function sampleLines(text: string): { sample: string[]; numbered: boolean } {
  const raw = text.split(/\r\n|\r|\n/, SAMPLE_LINES * 4);
  const numbers = findLineNumbers(raw);
  const lines = withoutLineNumbers(raw, numbers).filter((l) => l.trim().length > 0);
  return { sample: lines.slice(0, SAMPLE_LINES), numbered: numbers !== null };
}
