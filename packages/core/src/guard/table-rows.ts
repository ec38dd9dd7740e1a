/**
 * Tables, read as tables. Two rules, both decided from the block alone.
 *
 * A short table is read whole: in a block of fewer than {@link SHORT_BLOCK} lines, every row of a table
 * of at most {@link SHORT_TABLE} rows under a header guards. `kubectl describe` prints its pod's
 * `Conditions` as five rows of `Type  Status`; folding them saves a few dozen tokens and hides the one
 * `PodScheduled  False` that says why nothing runs, behind a stub that cannot say so.
 *
 * Surprise relative to the block, for long tables: a row whose value in a categorical column is rare among
 * the table's rows. `kubectl get pods -A` prints seven hundred rows `Running`, one `Pending` and one
 * `0/1`; no word on the `Pending` row sounds alarming, yet it is the row the agent is looking for. What
 * the row says relative to its block — the one pod in another state — is the finding, the same way the
 * first line of a rare template is news in a log.
 *
 * A table is a run of rows aligned on the same column starts (a cell starts after two or more spaces, as
 * `kubectl`, `docker ps`, `helm list` and most CLI tables pad their columns). A column is categorical
 * when it holds few distinct values and one of them dominates; a row is rare when its value there is
 * held by at most {@link RARE_ROWS} rows (or {@link RARE_SHARE} of them). Decided from the block alone.
 */

/** A run of aligned rows shorter than this is not a table whose values can be counted. */
const MIN_ROWS = 20;
/** Blocks shorter than this read a short table whole (as RELATIVE_BAR_LINES in tier1/select-lines.ts). */
const SHORT_BLOCK = 200;
/** A short table: a header and at most this many rows, separator included. */
const SHORT_TABLE = 12;
// A header: capitalised words, one or more to a cell (`NOMINATED NODE`), or a row of dashes under one.
const HEADER_CELL = /^(?:[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*|-+)$/;
/** Rows of a table need at least this many cells. */
const MIN_CELLS = 3;
/** A categorical column holds at most this many distinct values… */
const MAX_CATEGORIES = 8;
/** …and its most common value is held by at least this share of the rows. */
const DOMINANT_SHARE = 0.6;
/** A value held by at most this many rows, or this share of them, is rare. */
const RARE_ROWS = 2;
const RARE_SHARE = 0.02;

/**
 * Marks with `reason`, in `judged`, the texts that are rows of a short table in a short block, or rows of
 * a long aligned table with a rare value in a categorical column. `texts` are the block's distinct lines
 * in order of first appearance (a table's rows are distinct), `repeats[u]` how many lines repeat text u.
 */
export function guardTableRows(
  texts: readonly string[],
  repeats: Int32Array,
  judged: Uint8Array,
  reason: number,
): void {
  let lines = 0;
  for (let u = 0; u < texts.length; u++) lines += repeats[u]!;
  // Layouts are compared as offsets in two reused buffers: most lines of a log have one cell, and
  // building and joining an array of starts per line cost more than the rest of the guard's table rule.
  let start = 0;
  while (start < texts.length) {
    const cells = layoutInto(texts[start]!, firstLayout);
    let end = start + 1;
    if (cells >= 2) {
      while (end < texts.length && sameLayout(texts[end]!, cells)) end++;
      const rows = end - start;
      const layout = Array.from(firstLayout.subarray(0, cells));
      if (rows >= MIN_ROWS && layout.length >= MIN_CELLS)
        markRareRows(texts, repeats, start, end, layout, judged, reason);
      else if (lines < SHORT_BLOCK && rows >= 3 && rows <= SHORT_TABLE && isHeader(texts[start]!, layout))
        for (let u = start; u < end; u++) judged[u] = judged[u]! | reason;
    }
    start = end;
  }
}

/** Cell starts of the table's first row, and of the row compared with it (a line's first non-space, and any after two or more spaces). */
let firstLayout = new Int32Array(64);
let rowLayout = new Int32Array(64);

/**
 * The offsets where the cells of `line` start, written into `into` (grown when a line has more cells; the grown buffer
 * replaces the module's one it was given), returning the number of cells.
 */
function layoutInto(line: string, into: Int32Array): number {
  // Without two spaces in a row a line has one cell at most: most lines of a log, found by the native
  // search without reading the line a character at a time.
  // (Its offsets are not written then: a count under two is never compared cell by cell.)
  if (line.indexOf('  ') < 0) return line.length === 0 || line === ' ' ? 0 : 1;
  let out = into;
  let cells = 0;
  let spaces = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) {
      spaces++;
      continue;
    }
    if (cells === 0 || spaces >= 2) {
      if (cells === out.length) {
        const grown = new Int32Array(out.length * 2);
        grown.set(out);
        out = grown;
        if (into === firstLayout) firstLayout = grown;
        else rowLayout = grown;
      }
      out[cells++] = i;
    }
    spaces = 0;
  }
  return cells;
}

/** Whether `line`'s cells start where the first row's {@link firstLayout} `cells` do. */
function sameLayout(line: string, cells: number): boolean {
  if (layoutInto(line, rowLayout) !== cells) return false;
  for (let k = 0; k < cells; k++) if (rowLayout[k] !== firstLayout[k]) return false;
  return true;
}

/** Whether every cell of a row is a column name: the row heads a table. */
function isHeader(line: string, layout: readonly number[]): boolean {
  return layout.every((at, col) => HEADER_CELL.test(line.slice(at, layout[col + 1]).trim()));
}

function markRareRows(
  texts: readonly string[],
  repeats: Int32Array,
  start: number,
  end: number,
  layout: readonly number[],
  judged: Uint8Array,
  reason: number,
): void {
  let rows = 0;
  for (let u = start; u < end; u++) rows += repeats[u]!;
  const rare = Math.max(RARE_ROWS, Math.floor(rows * RARE_SHARE));
  for (let col = 0; col < layout.length; col++) {
    const cellOf = (u: number): string =>
      texts[u]!.slice(layout[col], col + 1 < layout.length ? layout[col + 1] : undefined).trim();
    const counts = new Map<string, number>();
    for (let u = start; u < end && counts.size <= MAX_CATEGORIES; u++) {
      const cell = cellOf(u);
      counts.set(cell, (counts.get(cell) ?? 0) + repeats[u]!);
    }
    if (counts.size > MAX_CATEGORIES || counts.size < 2) continue;
    if (Math.max(...counts.values()) < rows * DOMINANT_SHARE) continue;
    for (let u = start; u < end; u++) if (counts.get(cellOf(u))! <= rare) judged[u] = judged[u]! | reason;
  }
}
