import type { DialPoint } from './equivalence-dial.js';

/** One curve of the plot. */
export interface FrontierSeries {
  readonly label: string;
  readonly points: readonly DialPoint[];
  /** Drawn thick, with each point labelled by its dial setting. */
  readonly emphasis?: boolean;
}

const WIDTH = 720;
const HEIGHT = 460;
const MARGIN = { left: 70, right: 190, top: 40, bottom: 56 };
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fixed = (n: number): string => n.toFixed(1);

/**
 * The savings/equivalence frontier as a standalone SVG: decision equivalence on the x axis (100% at the
 * right), token savings on the y axis, one polyline per series. Hand-written markup rather than a charting
 * package: one chart type, no browser, no dependency.
 */
export function renderFrontierSvg(series: readonly FrontierSeries[], title: string): string {
  const all = series.flatMap((s) => s.points);
  const minEq = Math.min(0.9, ...all.map((p) => p.equivalence));
  const xMin = Math.max(0, Math.floor(minEq * 20) / 20);
  const yMax = Math.max(0.1, Math.ceil(Math.max(0, ...all.map((p) => p.savings)) * 10) / 10);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (eq: number): number => MARGIN.left + ((eq - xMin) / (1 - xMin || 1)) * plotW;
  const y = (s: number): number => MARGIN.top + plotH - (s / yMax) * plotH;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  );
  for (let i = 0; i <= 5; i++) {
    const eq = xMin + ((1 - xMin) * i) / 5;
    const sv = (yMax * i) / 5;
    parts.push(
      `<line x1="${fixed(x(eq))}" y1="${MARGIN.top}" x2="${fixed(x(eq))}" y2="${MARGIN.top + plotH}" stroke="#e5e5e5"/>`,
      `<text x="${fixed(x(eq))}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${(eq * 100).toFixed(0)}%</text>`,
      `<line x1="${MARGIN.left}" y1="${fixed(y(sv))}" x2="${MARGIN.left + plotW}" y2="${fixed(y(sv))}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 8}" y="${fixed(y(sv) + 4)}" text-anchor="end">${(sv * 100).toFixed(0)}%</text>`,
    );
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">decision equivalence</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">token savings</text>`,
  );
  series.forEach((s, i) => {
    const color = s.emphasis ? '#111111' : PALETTE[i % PALETTE.length]!;
    const width = s.emphasis ? 2.5 : 1.2;
    const pts = s.points.map((p) => `${fixed(x(p.equivalence))},${fixed(y(p.savings))}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="${width}"/>`);
    for (const p of s.points) {
      parts.push(
        `<circle cx="${fixed(x(p.equivalence))}" cy="${fixed(y(p.savings))}" r="${s.emphasis ? 3.5 : 2}" fill="${color}"/>`,
      );
    }
    if (s.emphasis) {
      // Label a dial setting only where it does not overprint the last label drawn.
      let last: { x: number; y: number } | null = null;
      for (const p of s.points) {
        const at = { x: x(p.equivalence), y: y(p.savings) };
        if (last !== null && Math.hypot(at.x - last.x, at.y - last.y) < 22) continue;
        last = at;
        parts.push(
          `<text x="${fixed(at.x + 5)}" y="${fixed(at.y - 6)}" font-size="10" fill="#111">${p.target}</text>`,
        );
      }
    }
    const ly = MARGIN.top + 14 + i * 16;
    if (ly < HEIGHT - MARGIN.bottom) {
      parts.push(
        `<line x1="${WIDTH - MARGIN.right + 14}" y1="${ly - 4}" x2="${WIDTH - MARGIN.right + 34}" y2="${ly - 4}" stroke="${color}" stroke-width="${width}"/>`,
        `<text x="${WIDTH - MARGIN.right + 40}" y="${ly}" font-size="11">${escapeXml(s.label.slice(0, 24))}</text>`,
      );
    }
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
