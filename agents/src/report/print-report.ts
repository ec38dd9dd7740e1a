import { type CallBill, inputTokens } from '@distil/savings';
import { acceptanceChecks, type SessionComparison, savedShare } from './acceptance.js';
import type { ExchangeFigures } from './session-figures.js';

const usd = (x: number): string => `$${x.toFixed(4)}`;
const change = (saved: number, less: string, more: string): string =>
  `${(100 * Math.abs(saved)).toFixed(1)}% ${saved >= 0 ? less : more}`;
const tokens = (b: CallBill): string =>
  `${b.input}/${b.cacheWrite5m + b.cacheWrite1h}/${b.cacheRead}/${b.output}`;

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function row(i: number, d: ExchangeFigures | undefined, t: ExchangeFigures | undefined): string[] {
  return [
    String(i + 1),
    (t ?? d)?.action ?? '',
    t ? String(t.newResults.agentTokens) : '',
    t ? String(t.newResults.upstreamTokens) : '',
    d ? tokens(d.bill) : '',
    d ? usd(d.bill.usd) : '',
    t ? `${t.calls}` : '',
    t ? tokens(t.bill) : '',
    t ? usd(t.bill.usd) : '',
    `${d?.busts ?? 0}/${t?.busts ?? 0}`,
    t ? String(t.expands) : '',
    t?.untouched ? 'untouched' : '',
  ];
}

/** The per-turn table, totals, CI-log figures and acceptance of one session, as text. */
export function formatSession(s: SessionComparison): string {
  const { direct, distil } = s;
  const out: string[] = [`== ${s.label}`];
  const header = [
    'turn',
    'next step (model reply)',
    'TR agent',
    'TR upstr',
    'direct in/cw/cr/out',
    'direct $',
    'calls',
    'distil in/cw/cr/out',
    'distil $',
    'busts d/t',
    'exp',
    '',
  ];
  const n = Math.max(direct.exchanges.length, distil.exchanges.length);
  const rows = [
    header,
    ...Array.from({ length: n }, (_, i) => row(i, direct.exchanges[i], distil.exchanges[i])),
  ];
  const dIn = inputTokens(direct.total);
  const tIn = inputTokens(distil.total);
  rows.push([
    'all',
    '',
    String(distil.exchanges.reduce((a, e) => a + e.newResults.agentTokens, 0)),
    String(distil.exchanges.reduce((a, e) => a + e.newResults.upstreamTokens, 0)),
    tokens(direct.total),
    usd(direct.total.usd),
    String(distil.exchanges.reduce((a, e) => a + e.calls, 0)),
    tokens(distil.total),
    usd(distil.total.usd),
    `${direct.busts}/${distil.busts}`,
    String(distil.expands),
    '',
  ]);
  out.push(table(rows));
  out.push(
    '(TR = tokens of the tool results new in that request through Distil, as the agent sent them / as the ' +
      'upstream got them; in/cw/cr/out = uncached input / cache write / cache read / output tokens billed)',
  );
  out.push(
    `input tokens billed: direct ${dIn}, through Distil ${tIn} (${change(savedShare(dIn, tIn), 'fewer', 'more')}); ` +
      `cost: direct ${usd(direct.total.usd)}, through ${usd(distil.total.usd)} ` +
      `(${change(savedShare(direct.total.usd, distil.total.usd), 'cheaper', 'dearer')})`,
  );
  if (distil.ledger) {
    out.push(
      `proxy's own ledger: ${distil.ledger.requests} requests recorded, actual ${usd(distil.ledger.actualUsd)}, ` +
        `claims ${usd(distil.ledger.savedUsd)} saved (measured here: ${usd(direct.total.usd - distil.total.usd)})`,
    );
  }
  if (distil.ciLog) {
    const log = distil.ciLog;
    out.push(
      `CI-log tool result: agent sent ${log.agentTokens} tokens, upstream got ${log.upstreamTokens}, ` +
        `distil compress on the same text ${s.reference?.tokens ?? 'n/a'} (${s.reference?.tier ?? ''} tier); ` +
        `key lines visible ${log.keyLinesVisible.filter((v) => v === true).length}/` +
        `${log.keyLinesVisible.filter((v) => v !== null).length} of those the agent sent`,
    );
  }
  for (const [route, figures] of [
    ['direct', direct],
    ['through Distil', distil],
  ] as const) {
    for (const e of figures.exchanges) {
      for (const detail of e.bustDetails) out.push(`cache bust (${route}) at turn ${e.exchange}, ${detail}`);
    }
  }
  if (direct.upstreamErrors.length + distil.upstreamErrors.length > 0) {
    out.push(`upstream refused: ${[...direct.upstreamErrors, ...distil.upstreamErrors].join('; ')}`);
  }
  out.push(`final answer (direct):  ${direct.finalAnswer}`);
  out.push(`final answer (through): ${distil.finalAnswer}`);
  for (const check of acceptanceChecks(s))
    out.push(`  ${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
  return out.join('\n');
}
