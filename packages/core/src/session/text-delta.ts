import { applyPatch, structuredPatch } from 'diff';

/** Context lines around each hunk: one is enough for a model to place the change and for patching. */
const CONTEXT_LINES = 1;

/**
 * The unified diff (hunks only, no file headers) that turns `earlier` into `later`, computed with jsdiff's
 * Myers diff. `applyTextDelta(earlier, delta) === later` for every pair of strings. With `maxEditLines`,
 * gives up (null) once more lines than that would be inserted or deleted: Myers costs O((N+M)·D), and a
 * diff that large would not be sent anyway; `quickReject` (default on) first counts lines either side
 * lacks, which refuses a hopeless pair in linear time.
 */
export function textDelta(earlier: string, later: string): string;
export function textDelta(
  earlier: string,
  later: string,
  maxEditLines: number,
  quickReject?: boolean,
): string | null;
export function textDelta(
  earlier: string,
  later: string,
  maxEditLines?: number,
  quickReject = true,
): string | null {
  if (maxEditLines !== undefined && quickReject && unsharedLines(earlier, later) > maxEditLines) return null;
  const patch =
    maxEditLines === undefined
      ? structuredPatch('', '', earlier, later, undefined, undefined, { context: CONTEXT_LINES })
      : structuredPatch('', '', earlier, later, undefined, undefined, {
          context: CONTEXT_LINES,
          maxEditLength: maxEditLines,
        });
  if (!patch) return null;
  let out = '';
  for (const hunk of patch.hunks) {
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

/**
 * Lines of either text that the other lacks entirely: a lower bound on the lines a diff must insert or
 * delete, found in linear time, so a hopeless diff is refused before Myers runs.
 */
function unsharedLines(earlier: string, later: string): number {
  const before = earlier.split('\n');
  const after = later.split('\n');
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  let count = 0;
  for (const line of after) if (!inBefore.has(line)) count++;
  for (const line of before) if (!inAfter.has(line)) count++;
  return count;
}

/** Applies a delta from textDelta to the earlier version; throws when it does not apply. */
export function applyTextDelta(earlier: string, delta: string): string {
  if (delta.length === 0) return earlier;
  const result = applyPatch(earlier, `--- a\n+++ b\n${delta}`);
  if (result === false) throw new Error('the diff does not apply to the earlier version');
  return result;
}

// Unified diff ranges (GNU diffutils): a one-line range omits its length, an empty one starts one line
// before the position it would occupy.
function range(start: number, lines: number): string {
  if (lines === 1) return `${start}`;
  return `${lines === 0 ? start - 1 + (start === 0 ? 1 : 0) : start},${lines}`;
}
