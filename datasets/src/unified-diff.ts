/**
 * Unified diffs built from known edits rather than recovered by a diff algorithm: the generator already
 * knows which old lines it replaced, so hunks are grouped from the edit list directly (3 lines of context,
 * hunks merged when their context overlaps, as `git diff` does).
 */

/** Replace `remove` old lines starting at old line `at` (1-based) by `insert`. */
export interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: readonly string[];
}

/** One rendered diff line and whether it is a change (`+`/`-`). */
export interface DiffLine {
  readonly text: string;
  readonly changed: boolean;
}

/**
 * The hunks of a unified diff for `edits` on `old`. `heading` finds the text git prints after `@@` (the
 * nearest enclosing function line before the hunk), or null.
 */
export function hunks(
  old: readonly string[],
  edits: readonly Edit[],
  heading: (line: string) => boolean,
  context = 3,
): DiffLine[] {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  const groups: Edit[][] = [];
  for (const e of sorted) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (last && prev && e.at - (prev.at + prev.remove) <= context * 2) last.push(e);
    else groups.push([e]);
  }
  const out: DiffLine[] = [];
  let shift = 0;
  for (const group of groups) {
    const first = group[0]!;
    const lastEdit = group[group.length - 1]!;
    const start = Math.max(1, first.at - context);
    const end = Math.min(old.length, lastEdit.at + lastEdit.remove - 1 + context);
    const body: DiffLine[] = [];
    let oldCount = 0;
    let newCount = 0;
    let i = start;
    for (const e of group) {
      while (i < e.at) {
        body.push({ text: ` ${old[i - 1]}`, changed: false });
        oldCount++;
        newCount++;
        i++;
      }
      for (let k = 0; k < e.remove; k++) {
        body.push({ text: `-${old[i - 1]}`, changed: true });
        oldCount++;
        i++;
      }
      for (const line of e.insert) {
        body.push({ text: `+${line}`, changed: true });
        newCount++;
      }
    }
    while (i <= end) {
      body.push({ text: ` ${old[i - 1]}`, changed: false });
      oldCount++;
      newCount++;
      i++;
    }
    let head = '';
    for (let k = start - 1; k >= 1; k--) {
      if (heading(old[k - 1]!)) {
        head = ` ${old[k - 1]!.trim().slice(0, 60)}`;
        break;
      }
    }
    const newStart = start + shift;
    out.push({
      text: `@@ -${start}${oldCount === 1 ? '' : `,${oldCount}`} +${oldCount === 0 && newCount === 0 ? newStart : newStart}${newCount === 1 ? '' : `,${newCount}`} @@${head}`,
      changed: false,
    });
    out.push(...body);
    for (const e of group) shift += e.insert.length - e.remove;
  }
  return out;
}
