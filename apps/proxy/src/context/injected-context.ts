/**
 * What a user message says in the user's own words, without the context the client injected into it.
 *
 * Agent clients put boilerplate every user gets into user messages, each piece wrapped whole in one tag
 * element that opens at the start of a line and closes at the end of one: Claude Code's
 * `<system-reminder>` (the date, the agent list, file-state notes), Codex's `<environment_context>` (cwd,
 * shell, date) and the `<INSTRUCTIONS>` body of an AGENTS.md file. That text was not typed by this user
 * about this task, so it must not become a cross-reference anchor (spec: salience guard — anchors come
 * from what the user asked and what the agent did). The rule is the shape alone, no list of tag names:
 * a line-delimited element is taken out whatever its name, and everything else stays.
 */

// An opening tag at the start of a line (attributes allowed), and a closing tag at the end of one.
const OPENING_TAG = /^\s*<([A-Za-z][\w.:-]*)(?:\s[^<>]*)?>/;
const CLOSING_TAG = /<\/([A-Za-z][\w.:-]*)>\s*$/;

/**
 * `text` with every line-delimited tag element removed (see the module comment), trimmed. Text with no
 * closing tag at the end of any line comes back as it is, without splitting it.
 */
export function withoutInjectedContext(text: string): string {
  if (!text.includes('</')) return text;
  const lines = text.split('\n');
  // Lines that end with a closing tag, by tag name, in order: one pass, so a text with many opening tags
  // that never close costs no more than one that has none.
  const closings = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const name = CLOSING_TAG.exec(line)?.[1];
    if (name === undefined) return;
    const at = closings.get(name);
    if (at) at.push(i);
    else closings.set(name, [i]);
  });
  if (closings.size === 0) return text;
  const next = new Map<string, number>();
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const name = OPENING_TAG.exec(line)?.[1];
    const ends = name === undefined ? undefined : closings.get(name);
    if (name !== undefined && ends) {
      let k = next.get(name) ?? 0;
      while (k < ends.length && ends[k]! < i) k++;
      next.set(name, k);
      if (k < ends.length) {
        i = ends[k]!;
        continue;
      }
    }
    kept.push(line);
  }
  return kept.join('\n').trim();
}
