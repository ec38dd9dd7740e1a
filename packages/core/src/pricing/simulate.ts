import type { ModelPrice, Trajectory } from '@distil/contract';
import { decisionText } from './decision-text.js';
import { billTurn, TokenMeter, type TurnCost } from './request-cost.js';
import { STRATEGIES, type StrategyContext, type StrategyName } from './strategies.js';

export type { TurnCost } from './request-cost.js';
export { STRATEGIES, type StrategyContext, type StrategyName } from './strategies.js';

/** Options of a simulation. */
export interface SimulateOptions extends StrategyContext {
  /** Which cache-write price applies (default `5m`, the providers' default TTL). */
  readonly cacheTtl?: '5m' | '1h';
}

/** One strategy over a whole trajectory. */
export interface StrategyReport {
  readonly strategy: StrategyName;
  readonly label: string;
  readonly turns: readonly TurnCost[];
  readonly totals: Omit<TurnCost, 'turn'>;
  /** Fraction of the baseline's dollars saved (negative: costs more). */
  readonly vsBaseline: number;
}

/** Every strategy's cost over one trajectory at one model's prices. */
export interface SimulationReport {
  readonly trajectory: string;
  readonly turns: number;
  readonly strategies: readonly StrategyReport[];
}

/**
 * Models the strategies over the whole trajectory (spec: cache-aware compression, "the simulation"): per
 * turn, the request each strategy sends, the longest prefix identical to its previous request (a cache
 * read once it reaches the model's minimum cacheable length), the cache write of the rest, and the
 * output (the decision's text). Baseline is always computed, since every saving is relative to it.
 */
export async function simulate(
  trajectory: Trajectory,
  price: ModelPrice,
  strategies: readonly StrategyName[],
  options: SimulateOptions,
): Promise<SimulationReport> {
  const meter = new TokenMeter();
  const outputs = trajectory.turns.map((turn) => meter.segment(decisionText(turn.decision)) - 4);
  const wanted = new Set<StrategyName>(['baseline', ...strategies]);
  const reports = new Map<StrategyName, Omit<StrategyReport, 'vsBaseline'>>();
  for (const name of Object.keys(STRATEGIES) as StrategyName[]) {
    if (!wanted.has(name)) continue;
    const strategy = STRATEGIES[name];
    const requests = await strategy.requests(trajectory, {
      minCacheableTokens: price.minCacheableTokens,
      ...options,
    });
    const caching = strategy.cached
      ? { enabled: true as const, ttl: options.cacheTtl ?? '5m' }
      : { enabled: false as const };
    const turns = requests.map((request, i) => {
      const tokens = request.reduce((sum, segment) => sum + meter.segment(segment), 0);
      const shared = i === 0 ? 0 : meter.commonPrefix(requests[i - 1]!, request);
      return billTurn(i, tokens, shared, Math.max(0, outputs[i] ?? 0), price, caching);
    });
    reports.set(name, { strategy: name, label: strategy.label, turns, totals: sum(turns) });
  }
  const baseline = reports.get('baseline')!.totals.usd;
  const ordered = (Object.keys(STRATEGIES) as StrategyName[]).filter(
    (n) => n === 'baseline' || strategies.includes(n),
  );
  return {
    trajectory: trajectory.id,
    turns: trajectory.turns.length,
    strategies: ordered.map((name) => {
      const report = reports.get(name)!;
      return { ...report, vsBaseline: baseline > 0 ? 1 - report.totals.usd / baseline : 0 };
    }),
  };
}

function sum(turns: readonly TurnCost[]): Omit<TurnCost, 'turn'> {
  const total = { requestTokens: 0, cacheRead: 0, cacheWrite: 0, fresh: 0, output: 0, usd: 0 };
  for (const t of turns) {
    total.requestTokens += t.requestTokens;
    total.cacheRead += t.cacheRead;
    total.cacheWrite += t.cacheWrite;
    total.fresh += t.fresh;
    total.output += t.output;
    total.usd += t.usd;
  }
  return total;
}
