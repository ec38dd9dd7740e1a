/** Terminal layout shared by renderers: separator banners and right-aligned columns. */

/** pytest's `sep`: `===== title =====` filling `width` columns (title-less when empty). */
export function banner(title: string, ch: string, width: number): string {
  if (title === '') return ch.repeat(width);
  const room = width - title.length - 2;
  const left = Math.max(1, Math.floor(room / 2));
  const right = Math.max(1, room - left);
  return `${ch.repeat(left)} ${title} ${ch.repeat(right)}`;
}

/** Left text and a right-hand suffix separated by spaces so the line is `width` wide. */
export function rightAlign(left: string, right: string, width: number): string {
  const gap = Math.max(1, width - left.length - right.length);
  return `${left}${' '.repeat(gap)}${right}`;
}

/** Rows of cells padded into columns `gap` spaces apart (default 3) (kubectl, coverage tables, docker ps). */
export function columns(rows: readonly (readonly string[])[], gap = 3): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + gap, ' ')))
      .join('')
      .trimEnd(),
  );
}

/** A byte count the way package managers print it: `512 B`, `14.2 kB`, `3.1 MB`. */
export function humanBytes(bytes: number, binary = false): string {
  const base = binary ? 1024 : 1000;
  const units = binary ? ['B', 'KiB', 'MiB', 'GiB', 'TiB'] : ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * A pytest short-summary line fitted to the terminal: the node id is never cut; the message after ` - `
 * is shortened with `...` so the line is at most `width` wide, or dropped when the id alone fills it.
 */
export function shortSummaryLine(kind: string, id: string, message: string, width: number): string {
  const head = `${kind} ${id}`;
  const full = `${head} - ${message}`;
  if (full.length <= width) return full;
  if (head.length + 6 >= width) return head;
  return `${full.slice(0, width - 3)}...`;
}

/** ANSI SGR escape for colourised output (`\u001b[31m`). */
export function sgr(code: string): string {
  return `\u001b[${code}m`;
}
