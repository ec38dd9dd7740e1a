/** A cell of a printed table: numbers are right-aligned, text left-aligned. */
export type Cell = string | number;

/**
 * Renders rows as an aligned plain-text table under a header and a rule. A column whose every cell is a
 * number (or a figure such as `12.5%` or `$0.0102`) is right-aligned.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = [header, ...rows.map((r) => r.map(String))];
  const figure = /^[-+$]?[\d.,]+%?$|^—$/;
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => figure.test(String(r[i] ?? ''))));
  const widths = header.map((_, i) => Math.max(...text.map((r) => (r[i] ?? '').length)));
  const render = (r: readonly string[]): string =>
    header
      .map((_, i) => (numeric[i] ? (r[i] ?? '').padStart(widths[i]!) : (r[i] ?? '').padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return (
    [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...text.slice(1).map(render)].join('\n') +
    '\n'
  );
}
