/**
 * The tokens by which a later turn can refer to a line of tool output: runs of at least four identifier,
 * path or number characters. A tool-output line is *needed* when a later assistant text or tool input
 * shares one with it — the label definition of the published study of real Claude Code tool outputs that
 * `distil savings` and the keep-model benchmarks measure against.
 */
const REFERENCE_TOKEN = /[A-Za-z0-9_./:-]{4,}/g;

/** Every reference token of `text`. */
export function referenceTokens(text: string): Set<string> {
  return new Set(text.match(REFERENCE_TOKEN) ?? []);
}

/** Whether `line` shares a reference token with `later`. */
export function sharesToken(line: string, later: ReadonlySet<string>): boolean {
  for (const token of line.match(REFERENCE_TOKEN) ?? []) if (later.has(token)) return true;
  return false;
}
