/** Escapes text for HTML and SVG (element content and double-quoted attributes). */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One line of a chart: points as [x, y]. */
export interface LineSeries {
  readonly label: string;
  readonly colour: string;
  readonly points: readonly (readonly [number, number])[];
  readonly dashed?: boolean;
}

/** Options of a line chart. */
export interface LineChartOptions {
  readonly width?: number;
  readonly height?: number;
  readonly formatY: (y: number) => string;
  readonly formatX: (x: number) => string;
  /** Lowest y on the axis (default: 0, or the data's minimum when it is negative). */
  readonly yMin?: number;
  readonly yMax?: number;
}

const fixed = (n: number): string => n.toFixed(1);

/**
 * A line chart as inline SVG markup: axes, four y gridlines with labels, first and last x labels, a
 * legend, one polyline per series (a single point is drawn as a dot). Hand-written rather than a charting
 * package so the page stays self-contained: no script, no CDN, nothing fetched.
 */
export function lineChart(series: readonly LineSeries[], options: LineChartOptions): string {
  // Drawn at about the size it is shown (the page is ~1,000 px wide), so text keeps its CSS size.
  const width = options.width ?? 1000;
  const height = options.height ?? 240;
  const m = { left: 72, right: 16, top: 28, bottom: 28 };
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yMin = options.yMin ?? Math.min(0, ...ys);
  const yTop = options.yMax ?? Math.max(...ys);
  const yMax = yTop > yMin ? yTop : yMin + 1;
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const x = (v: number): number => m.left + (xMax > xMin ? ((v - xMin) / (xMax - xMin)) * plotW : plotW / 2);
  const y = (v: number): number => m.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img">`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = yMin + ((yMax - yMin) * i) / 4;
    out.push(
      `<line x1="${m.left}" x2="${width - m.right}" y1="${fixed(y(v))}" y2="${fixed(y(v))}" stroke="#e3e6ea"/>`,
      `<text x="${m.left - 6}" y="${fixed(y(v) + 4)}" text-anchor="end" class="axis">${escapeHtml(options.formatY(v))}</text>`,
    );
  }
  if (all.length > 0) {
    out.push(
      `<text x="${m.left}" y="${height - 8}" class="axis">${escapeHtml(options.formatX(xMin))}</text>`,
      `<text x="${width - m.right}" y="${height - 8}" text-anchor="end" class="axis">${escapeHtml(options.formatX(xMax))}</text>`,
    );
  }
  series.forEach((s, i) => {
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    if (s.points.length === 1) {
      const [px, py] = s.points[0]!;
      out.push(`<circle cx="${fixed(x(px))}" cy="${fixed(y(py))}" r="4" fill="${s.colour}"/>`);
    } else if (s.points.length > 1) {
      const path = s.points.map(([px, py]) => `${fixed(x(px))},${fixed(y(py))}`).join(' ');
      out.push(`<polyline fill="none" stroke="${s.colour}" stroke-width="2.5"${dash} points="${path}"/>`);
    }
    const lx = m.left + 8 + i * 240;
    out.push(
      `<rect x="${lx}" y="8" width="14" height="4" fill="${s.colour}"/>`,
      `<text x="${lx + 20}" y="14" class="legend">${escapeHtml(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('');
}

/** One bar of a bar chart. */
export interface Bar {
  readonly label: string;
  readonly value: number;
}

/** A horizontal bar chart as inline SVG: one labelled bar per item, its value at the end of the bar. */
export function barChart(bars: readonly Bar[], format: (v: number) => string, width = 480): string {
  const row = 26;
  const labelW = 120;
  const height = bars.length * row + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const barW = width - labelW - 70;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img">`,
  ];
  bars.forEach((b, i) => {
    const top = 4 + i * row;
    const w = Math.max(2, (b.value / max) * barW);
    out.push(
      `<text x="${labelW - 8}" y="${top + 16}" text-anchor="end" class="axis">${escapeHtml(b.label)}</text>`,
      `<rect x="${labelW}" y="${top + 3}" width="${fixed(w)}" height="18" rx="3" fill="#4e79a7"/>`,
      `<text x="${fixed(labelW + w + 6)}" y="${top + 16}" class="axis">${escapeHtml(format(b.value))}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('');
}
