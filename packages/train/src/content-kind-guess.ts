import { extname } from 'node:path';
import type { ContentKind } from '@distil/contract';

/** Content kinds by file extension; anything else is decided from the text. */
const KIND_BY_EXTENSION: Readonly<Record<string, ContentKind>> = Object.freeze({
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json',
  '.diff': 'diff',
  '.patch': 'diff',
  '.md': 'doc',
  '.rst': 'doc',
  '.adoc': 'doc',
  '.yaml': 'schema',
  '.yml': 'schema',
  '.toml': 'schema',
  '.xsd': 'schema',
  '.proto': 'schema',
  '.graphql': 'schema',
  '.py': 'source',
  '.ts': 'source',
  '.tsx': 'source',
  '.js': 'source',
  '.jsx': 'source',
  '.mjs': 'source',
  '.go': 'source',
  '.rs': 'source',
  '.java': 'source',
  '.kt': 'source',
  '.c': 'source',
  '.h': 'source',
  '.cc': 'source',
  '.cpp': 'source',
  '.rb': 'source',
  '.cs': 'source',
  '.swift': 'source',
  '.sh': 'source',
  '.log': 'log',
});

const LOG_LINE =
  /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|(INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)/;
const DIFF_HEADER = /^(diff --git |--- \S|@@ -\d+(,\d+)? \+\d+(,\d+)? @@)/m;

/**
 * The content kind of a corpus file: by extension when it says (`.py` → source, `.json` → json), else from
 * its first lines — a diff header makes a diff, mostly timestamped or levelled lines a log, anything else
 * is a tool output (the kind KeepModels score most).
 */
export function guessContentKind(path: string, lines: readonly string[]): ContentKind {
  const byExtension = KIND_BY_EXTENSION[extname(path).toLowerCase()];
  if (byExtension && byExtension !== 'log') return byExtension;
  const head = lines.slice(0, 200);
  if (DIFF_HEADER.test(head.join('\n'))) return 'diff';
  const logLines = head.filter((line) => LOG_LINE.test(line)).length;
  if (byExtension === 'log' || (logLines >= 3 && logLines * 3 >= head.length)) return 'log';
  return 'tool_output';
}
