import type { ContentKind, Role } from '@distil/contract';

/**
 * A content kind for imported text, by a few cheap rules. Tool results are classified from their text;
 * system prompts are documentation and conversation turns are chat. Used until tier 0 classifies by
 * content itself, and kept deliberately simple: the kind only picks transforms, it never drops bytes.
 */
export function kindForImportedText(role: Role, text: string): ContentKind {
  if (role === 'system') return 'doc';
  if (role !== 'tool') return 'chat';
  return kindOfToolOutput(text);
}

const DIFF_HEADER = /^(diff --git |--- \S|@@ -\d+(,\d+)? \+\d+(,\d+)? @@)/m;
const LOG_LINE = /^\s*(\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[?(INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)/;
const SOURCE_LINE =
  /^\s*(def |class |import |from \S+ import |function |const |let |export |interface |#include |package |public |fn |func )/;

function kindOfToolOutput(text: string): ContentKind {
  const trimmed = text.trimStart();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && parsesAsJson(trimmed)) return 'json';
  if (DIFF_HEADER.test(text)) return 'diff';
  const lines = text.split('\n', 200);
  let logLines = 0;
  let sourceLines = 0;
  for (const line of lines) {
    if (LOG_LINE.test(line)) logLines++;
    if (SOURCE_LINE.test(line)) sourceLines++;
  }
  if (logLines >= 3 && logLines * 3 >= lines.length) return 'log';
  if (sourceLines >= 2 && sourceLines * 8 >= lines.length) return 'source';
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
