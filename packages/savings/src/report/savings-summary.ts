import type { SessionSource } from '../sessions/recorded-session.js';
import type { SessionSavings } from './session-savings.js';

/** Sums over a group of sessions. */
export interface SavingsTotals {
  readonly label: string;
  readonly sessions: number;
  readonly calls: number;
  readonly noCache: number;
  readonly cacheOnly: number;
  readonly distil: number;
  readonly ceiling: number;
  readonly neededOnly: number;
  /** Recorded bill of the sessions whose logs record one, beside the simulated cache-only bill of the same. */
  readonly recorded: { readonly sessions: number; readonly usd: number; readonly simulatedUsd: number };
  /** Share of the cache-only bill saved (negative: dearer), and the ceiling's share. */
  readonly saved: number;
  readonly ceilingSaved: number;
  /** Share saved by keeping only each tool result's needed lines: the bound for ≥ 100% fidelity. */
  readonly neededOnlySaved: number;
  readonly neededLines: number;
  readonly hiddenLines: number;
  readonly hiddenAfterExpands: number;
  readonly expandCalls: number;
  readonly expandUsd: number;
  readonly extraCacheWriteUsd: number;
}

/** The agent each source belongs to, for totals. */
const AGENT: Readonly<Record<SessionSource, string>> = {
  'claude-code': 'Claude Code',
  'claude-code-subagent': 'Claude Code',
  codex: 'Codex',
  'swe-agent': 'SWE-agent',
  openhands: 'OpenHands',
  distil: 'Distil trajectories',
};

/** Totals per agent, then over the Claude Code and Codex sessions together (the real agents' wire). */
export function summarise(figures: readonly SessionSavings[]): SavingsTotals[] {
  const groups = new Map<string, SessionSavings[]>();
  for (const f of figures) {
    const agent = AGENT[f.source as SessionSource] ?? f.source;
    groups.set(agent, [...(groups.get(agent) ?? []), f]);
  }
  const out = [...groups].map(([label, list]) => totals(label, list));
  const real = figures.filter((f) => f.source.startsWith('claude-code') || f.source === 'codex');
  const agents = new Set(real.map((f) => AGENT[f.source as SessionSource]));
  if (agents.size > 1) out.push(totals('Claude Code and Codex', real));
  return out;
}

/**
 * What kept a session from its ceiling, by the largest share of the dollars it did not save: tool output
 * forwarded byte for byte (`pass-through`), tool output compressed but mostly kept because it was judged
 * needed (`guard`), expand round trips, or cache writes Distil caused.
 */
export function heldBackBy(f: SessionSavings): string {
  const gap = f.distil - f.ceiling;
  if (gap <= 0) return '—';
  const kept = f.toolTokens.forwarded;
  const untouchedShare = f.passThrough.requests === 0 ? 0 : f.passThrough.untouched / f.passThrough.requests;
  const causes: [string, number][] = [
    ['expands', f.expandUsd],
    ['cache writes', Math.max(0, f.extraCacheWriteUsd)],
    ['pass-through', kept > 0 ? (gap - f.expandUsd) * untouchedShare : 0],
    ['guard', kept > 0 ? (gap - f.expandUsd) * (1 - untouchedShare) : 0],
  ];
  return causes.sort((a, b) => b[1] - a[1])[0]![0];
}

function totals(label: string, list: readonly SessionSavings[]): SavingsTotals {
  const sum = (pick: (f: SessionSavings) => number): number => list.reduce((s, f) => s + pick(f), 0);
  const withRecord = list.filter((f) => f.recorded !== null);
  const cacheOnly = sum((f) => f.cacheOnly);
  const distil = sum((f) => f.distil);
  const ceiling = sum((f) => f.ceiling);
  const neededOnly = sum((f) => f.neededOnly);
  return {
    label,
    sessions: list.length,
    calls: sum((f) => f.calls),
    noCache: sum((f) => f.noCache),
    cacheOnly,
    distil,
    ceiling,
    neededOnly,
    recorded: {
      sessions: withRecord.length,
      usd: withRecord.reduce((s, f) => s + f.recorded!, 0),
      simulatedUsd: withRecord.reduce((s, f) => s + f.cacheOnly, 0),
    },
    saved: cacheOnly > 0 ? 1 - distil / cacheOnly : 0,
    ceilingSaved: cacheOnly > 0 ? 1 - ceiling / cacheOnly : 0,
    neededOnlySaved: cacheOnly > 0 ? 1 - neededOnly / cacheOnly : 0,
    neededLines: sum((f) => f.fidelity.neededLines),
    hiddenLines: sum((f) => f.fidelity.hiddenLines),
    hiddenAfterExpands: sum((f) => f.fidelity.hiddenAfterExpands),
    expandCalls: sum((f) => f.expandCalls),
    expandUsd: sum((f) => f.expandUsd),
    extraCacheWriteUsd: sum((f) => f.extraCacheWriteUsd),
  };
}
