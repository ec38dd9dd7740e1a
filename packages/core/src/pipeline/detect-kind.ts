import type { ContentKind } from '@distil/contract';

const SAMPLE_LINES = 200;
const DIFF_HEADER =
  /^(?:diff --git |--- a\/|\+\+\+ b\/|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|index [0-9a-f]{7,}\.\.[0-9a-f]{7,})/;
const SOURCE_LINE =
  /^\s*(?:import\s.+from\s|import\s+[\w{*]|from\s+[\w.]+\s+import\s|export\s+(?:default\s+)?(?:async\s+)?(?:function|class|const|interface|type|enum)\b|(?:async\s+)?def\s+\w+\s*\(|class\s+\w+[\s(:{<]|(?:public|private|protected|static)\s+[\w<>[\]]+\s+\w+\s*\(|function\s+\w+\s*\(|const\s+\w+\s*=|let\s+\w+\s*=|fn\s+\w+\s*\(|func\s+\w+\s*\(|package\s+\w+;?$|#include\s*[<"]|@\w+(?:\(|$))/;
const LOG_LINE =
  /^(?:\S+\s+){0,3}?(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|[A-Z][a-z]{2}\s+\d{1,2}\s\d\d:\d\d|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL)\]?[\s:])/;

/**
 * Guesses what a block holds when its producer did not say, from a sample of its lines: JSON when the
 * whole text parses as an object or array, a unified diff by its headers, source code by declaration
 * lines, a log by timestamps and levels, otherwise a generic tool output. Cheap: at most a few hundred
 * lines are looked at, and JSON is only parsed when the text starts like JSON.
 */
export function detectKind(text: string): ContentKind {
  const trimmed = text.trimStart();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && parsesAsJson(trimmed)) return 'json';
  const lines = sampleLines(text);
  if (lines.length === 0) return 'tool_output';
  let diff = 0;
  let source = 0;
  let log = 0;
  for (const line of lines) {
    if (DIFF_HEADER.test(line)) diff++;
    else if (SOURCE_LINE.test(line)) source++;
    if (LOG_LINE.test(line)) log++;
  }
  const n = lines.length;
  if (diff >= 2 && /^(?:diff --git |--- )/m.test(text.slice(0, 4096))) return 'diff';
  if (log / n >= 0.3) return 'log';
  if (source / n >= 0.08 && source >= 3) return 'source';
  return 'tool_output';
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function sampleLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/, SAMPLE_LINES * 4).filter((l) => l.trim().length > 0);
  return lines.slice(0, SAMPLE_LINES);
}
