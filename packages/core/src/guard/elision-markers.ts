/**
 * A producer's own note that output is missing: Codex cuts a long tool output to its head and tail and
 * joins them with `…N tokens truncated…` (codex-rs `truncate_middle_with_token_budget`; `…N chars
 * truncated…` when it counts characters), older Codex and many tools print a line
 * `[... omitted N of M lines ...]` or `[... output truncated to fit N bytes ...]`. The agent must see
 * that part of the output is gone — and that Distil did not take it — so such a line is always kept.
 */
const INLINE = /…\d+ (?:tokens|chars|characters|bytes|lines) truncated…/;
const BRACKETED = /^\s*\[\.\.\. ?(?:omitted|truncated|output truncated)\b[^\]\n]{0,160}\]\s*$/;

/** Whether `line` is (or carries) a producer's note that output was cut there. */
export function isElisionMarker(line: string): boolean {
  // both forms hold '…' or '[...': a cheap test first, most lines have neither
  if (!line.includes('…') && !line.includes('[...')) return false;
  return INLINE.test(line) || BRACKETED.test(line);
}
