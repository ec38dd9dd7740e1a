import {
  heldBackBy,
  type SavingsTotals,
  type SessionSavings,
  type SkippedFile,
  summarise,
} from '@distil/savings';
import { formatTable } from './table.js';

const usd = (n: number): string => `$${n.toFixed(4)}`;
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
const share = (part: number, whole: number): string => (whole === 0 ? '—' : percent(part / whole));
const short = (id: string): string => (id.length > 28 ? `…${id.slice(-27)}` : id);

/** The session table, the totals per agent, what was counted and what was skipped. */
export function renderSavings(figures: readonly SessionSavings[], skipped: readonly SkippedFile[]): string {
  let out = formatTable(
    [
      'session',
      'agent',
      'calls',
      'cache only',
      'distil',
      'saved',
      'ceiling',
      'needed only',
      'recorded bill',
      'needed lines hidden',
      'held back by',
    ],
    figures.map((f) => [
      short(f.id),
      f.source,
      f.calls,
      usd(f.cacheOnly),
      usd(f.distil),
      share(f.cacheOnly - f.distil, f.cacheOnly),
      share(f.cacheOnly - f.ceiling, f.cacheOnly),
      share(f.cacheOnly - f.neededOnly, f.cacheOnly),
      f.recorded === null ? '—' : usd(f.recorded),
      share(f.fidelity.hiddenLines, f.fidelity.neededLines),
      heldBackBy(f),
    ]),
  );
  const totals = summarise(figures);
  out += `\n${formatTable(
    [
      'total',
      'sessions',
      'no cache',
      'cache only',
      'distil',
      'saved',
      'ceiling',
      'needed only',
      'needed lines hidden (after expands)',
    ],
    totals.map((t) => [
      t.label,
      t.sessions,
      usd(t.noCache),
      usd(t.cacheOnly),
      usd(t.distil),
      percent(t.saved),
      percent(t.ceilingSaved),
      percent(t.neededOnlySaved),
      `${share(t.hiddenLines, t.neededLines)} (${share(t.hiddenAfterExpands, t.neededLines)})`,
    ]),
  )}`;
  out += `\n${explain(totals.at(-1)!, figures)}`;
  if (skipped.length > 0) {
    out += `\nskipped ${skipped.length} file${skipped.length === 1 ? '' : 's'}:\n`;
    for (const s of skipped) out += `  ${s.file}: ${s.reason}\n`;
  }
  return out;
}

/** What every figure means and what it includes, with the costs Distil added. */
function explain(t: SavingsTotals, figures: readonly SessionSavings[]): string {
  const toolTokens = Math.max(0, ...figures.map((f) => f.toolDefinitionTokens));
  const badLines = figures.reduce((s, f) => s + f.skippedLines, 0);
  const shadow = figures.reduce((s, f) => s + f.shadowUsd, 0);
  const lines = [
    'Each request the agent made, rebuilt with its client profile (system prompt and tools captured from',
    'the real CLI when the log has none), sent direct and through the proxy to a local upstream that bills',
    "like the provider's prompt cache at list prices. cache only: direct, as today. distil: every call",
    'through the proxy. ceiling: direct with every tool-result token removed. needed only: direct with',
    'each tool result cut to its needed lines, the most a compressor that hides none of them could save.',
    `Counted in distil: ${t.expandCalls} expand round trips (${usd(t.expandUsd)}), Distil's tool definitions ` +
      `(${toolTokens} tokens a request), cache writes ${t.extraCacheWriteUsd >= 0 ? '+' : ''}${usd(t.extraCacheWriteUsd)} against direct.`,
    'The replayed agent expands the folds holding what its recorded next step refers to (a model of a',
    'careful agent); a needed line shares a token [A-Za-z0-9_./:-]{4,} with a later assistant text or tool input.',
  ];
  if (t.recorded.sessions > 0) {
    lines.push(
      `Recorded bill of the ${t.recorded.sessions} sessions that log one: ${usd(t.recorded.usd)}, against ` +
        `${usd(t.recorded.simulatedUsd)} simulated cache only (the log leaves out the client's own context).`,
    );
  }
  if (shadow > 0) {
    lines.push(
      `Shadow sampling (proxy.shadowSampleRate) is priced at its expected cost, ${usd(shadow)} in all: each ` +
        'sampled request is sent again uncompressed and shares no cached prefix.',
    );
  }
  if (badLines > 0) lines.push(`${badLines} log lines that were not valid JSON were skipped.`);
  return `${lines.join('\n')}\n`;
}
