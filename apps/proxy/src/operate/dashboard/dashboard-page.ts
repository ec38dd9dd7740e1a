import { renderFrontierSvg } from '@distil/replay';
import type { DashboardData, Panel } from './dashboard-data.js';
import { barChart, escapeHtml, type LineSeries, lineChart } from './svg-charts.js';

/** Dollars as the dashboard prints them: four decimals below $1 (single requests cost fractions of a cent). */
export function formatUsd(usd: number): string {
  const sign = usd < 0 ? '−' : '';
  const abs = Math.abs(usd);
  return `${sign}$${abs.toFixed(abs < 1 ? 4 : 2)}`;
}

/** A share as a percentage with one decimal. */
export const formatPercent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/** A count with thousands separators. */
export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

const time = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

const STYLE = `
:root{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#f6f8fa}
body{margin:0 auto;max-width:1080px;padding:24px}
h1{margin:0 0 4px;font-size:26px}h2{font-size:16px;margin:0 0 12px}
.verdict{font-size:19px;font-weight:600;margin:8px 0}.good{color:#1a7f37}.bad{color:#cf222e}.neutral{color:#57606a}
.meta,.note{color:#57606a;font-size:12px}.axis,.legend{font-size:12px}.legend{fill:#1f2328}.axis{fill:#57606a}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:12px;margin:16px 0}
.tile,section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px 16px}
section{margin:12px 0}.tile .v{font-size:24px;font-weight:600;margin:4px 0}.tile .l{font-size:12px;color:#57606a;text-transform:uppercase;letter-spacing:.04em}
.tile .s{font-size:12px;color:#57606a}.two{display:grid;grid-template-columns:1fr 1fr;gap:12px}.two section{margin:0}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}.empty{color:#57606a;font-style:italic}.error{color:#cf222e}
.frontier svg{max-width:100%;height:auto}`;

function tile(label: string, value: string, metric: string, sub = ''): string {
  return `<div class="tile"><div class="l">${escapeHtml(label)}</div><div class="v" data-metric="${metric}">${escapeHtml(value)}</div><div class="s">${escapeHtml(sub)}</div></div>`;
}

function panelState(panel: Panel<object>): string | null {
  if (panel.state === 'ok') return null;
  return `<p class="${panel.state === 'error' ? 'error' : 'empty'}" data-state="${panel.state}">${escapeHtml(panel.message)}</p>`;
}

function verdict(data: DashboardData): { text: string; tone: 'good' | 'bad' | 'neutral' } {
  const t = data.totals;
  const priced = t.requests - t.unpricedRequests;
  if (t.requests === 0) return { text: 'No traffic through this proxy yet.', tone: 'neutral' };
  if (priced === 0)
    return {
      text: 'No priced traffic yet: add the models\u2019 prices under pricing to see dollars.',
      tone: 'neutral',
    };
  const share = t.uncompressedUsd > 0 ? t.savedUsd / t.uncompressedUsd : 0;
  if (t.savedUsd > 0)
    return {
      text: `Paying off: ${formatUsd(t.savedUsd)} saved, ${formatPercent(share)} of what these ${formatCount(priced)} requests would have cost.`,
      tone: 'good',
    };
  return {
    text: `Not paying off yet: these ${formatCount(priced)} requests cost ${formatUsd(-t.savedUsd)} more than uncompressed.`,
    tone: 'bad',
  };
}

function savingsChart(data: DashboardData): string {
  const points = data.timeline;
  if (points.length === 0) return '<p class="empty" data-state="empty">No requests yet.</p>';
  const priced = points.some((p) => p.uncompressedUsd > 0);
  const series: LineSeries[] = priced
    ? [
        {
          label: 'without Distil (estimate)',
          colour: '#cf222e',
          dashed: true,
          points: points.map((p) => [p.at, p.uncompressedUsd]),
        },
        { label: 'with Distil (billed)', colour: '#1a7f37', points: points.map((p) => [p.at, p.billedUsd]) },
      ]
    : [
        {
          label: 'input tokens without Distil',
          colour: '#cf222e',
          dashed: true,
          points: points.map((p) => [p.at, p.inputTokensBefore]),
        },
        { label: 'input tokens billed', colour: '#1a7f37', points: points.map((p) => [p.at, p.inputTokens]) },
      ];
  return lineChart(series, { formatY: priced ? formatUsd : formatCount, formatX: time });
}

function cacheChart(data: DashboardData): string {
  const points = data.timeline.filter((p) => p.inputTokens > 0);
  if (points.length === 0) return '<p class="empty" data-state="empty">No billed input yet.</p>';
  const series: LineSeries[] = [
    {
      label: 'cache-hit rate (running)',
      colour: '#4e79a7',
      points: points.map((p) => [p.at, p.cacheReadTokens / p.inputTokens]),
    },
  ];
  return lineChart(series, { formatY: formatPercent, formatX: time, yMin: 0, yMax: 1, height: 180 });
}

function expandsPanel(data: DashboardData): string {
  if (data.expands.length === 0)
    return '<p class="empty" data-state="empty">No expands yet: the model has not needed a folded original.</p>';
  return barChart(
    data.expands.map((e) => ({ label: e.kind, value: e.count })),
    formatCount,
  );
}

function shadowPanel(data: DashboardData): string {
  const { stats, sampleRate } = data.shadow;
  const rate = `<p class="note">Sample rate for this proxy: ${formatPercent(sampleRate)}. Shadow mode is a detector, not a gate: it measures how often compression changes a decision; it never blocks or alters a reply.</p>`;
  const state = panelState(stats);
  if (state || stats.state !== 'ok') return state + rate;
  const { summary, interval } = stats;
  const rows = Object.entries(summary.endpoints)
    .map(
      ([endpoint, c]) =>
        `<tr><td>${escapeHtml(endpoint)}</td><td class="n">${formatCount(c.compared)}</td><td class="n">${formatCount(c.diverged)}</td></tr>`,
    )
    .join('');
  return `<p><b data-metric="shadow-interval">${formatPercent(interval.rate)} [${formatPercent(interval.low)}–${formatPercent(interval.high)}]</b> of ${formatCount(summary.compared)} compared decisions diverged (95% Wilson interval, ${summary.runs} run(s)).</p>
<table><tr><th>endpoint</th><th class="n">compared</th><th class="n">diverged</th></tr>${rows}</table>${rate}`;
}

function policyPanel(data: DashboardData): string {
  const { policy } = data;
  const state = panelState(policy);
  if (state || policy.state !== 'ok') return state!;
  const rows = policy.entries
    .map((e) => {
      const verdict =
        e.protectedBy.length > 0
          ? `protected (${e.protectedBy.join(' + ')})`
          : e.suspect
            ? 'digest (suspect)'
            : 'digest';
      const rate = e.digests > 0 ? formatPercent(e.expands / e.digests) : '—';
      return `<tr><td>${escapeHtml(e.signature)}</td><td class="n">${formatCount(e.digests)}</td><td class="n">${formatCount(e.expands)}</td><td class="n">${rate}</td><td class="n">${formatCount(e.regressions)}</td><td>${escapeHtml(verdict)}</td></tr>`;
    })
    .join('');
  return `<p>${policy.protected.length} signature(s) protected (kept byte-exact, never digested).</p>
<table data-panel="policy"><tr><th>signature</th><th class="n">digests</th><th class="n">expands</th><th class="n">expand rate</th><th class="n">regressions</th><th>verdict</th></tr>${rows}</table>`;
}

function frontierPanel(data: DashboardData): string {
  const { frontier } = data;
  const state = panelState(frontier);
  if (state || frontier.state !== 'ok') return state!;
  const svg = renderFrontierSvg(
    [{ label: 'all trajectories', points: frontier.points, emphasis: true }],
    `frontier (${frontier.runner} runner)`,
  );
  return `<div class="frontier">${svg}</div><p class="note">From ${escapeHtml(frontier.source)}.</p>`;
}

/**
 * The dashboard as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched from
 * anywhere, refreshed by the browser every 15 s. Every number is rendered on the server from `data`, so
 * what a person sees is what `/distil/dashboard.json` says.
 */
export function renderDashboard(data: DashboardData): string {
  const t = data.totals;
  const v = verdict(data);
  const priced = t.requests - t.unpricedRequests;
  const removed = data.inputTokens.before - data.inputTokens.after;
  const removedShare = data.inputTokens.before > 0 ? removed / data.inputTokens.before : 0;
  const shadow = data.shadow.stats;
  const tiles = [
    tile(
      'saved',
      priced > 0 ? formatUsd(t.savedUsd) : 'n/a',
      'saved-usd',
      priced > 0
        ? `billed ${formatUsd(t.actualUsd)} of ${formatUsd(t.uncompressedUsd)}`
        : 'no priced requests',
    ),
    tile(
      'requests',
      formatCount(t.requests),
      'requests',
      t.unpricedRequests > 0 ? `${formatCount(t.unpricedRequests)} unpriced` : '',
    ),
    tile(
      'tokens removed',
      formatCount(t.savedTokens),
      'removed-tokens',
      data.inputTokens.before > 0 ? `${formatPercent(removedShare)} of input` : '',
    ),
    tile(
      'cache-hit rate',
      data.cacheHitRate === null ? 'n/a' : formatPercent(data.cacheHitRate),
      'cache-hit',
      'cache reads / billed input',
    ),
    tile('expands', formatCount(t.expands), 'expands', 'distil_expand / distil_search answered'),
    tile(
      'keep model',
      data.keepModel?.id ?? 'n/a',
      'keep-model',
      data.keepModel?.fallback ? 'fallback: the configured model did not load' : 'decides what is folded',
    ),
    tile(
      'shadow divergence',
      shadow.state === 'ok' ? formatPercent(shadow.interval.rate) : 'n/a',
      'shadow-rate',
      shadow.state === 'ok'
        ? `95% CI ${formatPercent(shadow.interval.low)}–${formatPercent(shadow.interval.high)}`
        : 'no comparisons yet',
    ),
    tile(
      'overhead p50',
      data.overhead ? `${data.overhead.p50Ms.toFixed(2)} ms` : 'n/a',
      'overhead-p50',
      data.overhead ? `p99 ${data.overhead.p99Ms.toFixed(2)} ms` : '',
    ),
  ].join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="15"><title>Distil — is it paying off?</title><style>${STYLE}</style></head>
<body>
<header><h1>Distil</h1><p class="verdict ${v.tone}" data-metric="verdict">${escapeHtml(v.text)}</p>
<p class="meta">Generated ${escapeHtml(data.generatedAt)} · dollars from the provider\u2019s billed usage at list prices · learned data from ${escapeHtml(data.home)}</p></header>
<div class="tiles">${tiles}</div>
<section><h2>Savings over time</h2>${savingsChart(data)}</section>
<section><h2>Cache-hit rate</h2>${cacheChart(data)}</section>
<div class="two"><section><h2>Expands per content class</h2>${expandsPanel(data)}</section>
<section><h2>Shadow mode</h2>${shadowPanel(data)}</section></div>
<section><h2>Learned policy</h2>${policyPanel(data)}</section>
<section><h2>Frontier: savings against decision equivalence</h2>${frontierPanel(data)}</section>
</body></html>`;
}
