import type { FallbackPlan } from './certified-fallback.js';
import type { CompressionLevel } from './compression-ladder.js';

/** The dial settings `distil frontier` traces by default, from certified-safe down to "always digest". */
export const DEFAULT_TARGETS: readonly number[] = Object.freeze([
  1, 0.99, 0.98, 0.97, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5, 0,
]);

/**
 * The divergence budget at `target`: floor((1 − target) × turns) turns may keep the deepest transform
 * even when it changes the decision. Computed as the largest B with (turns − B) / turns ≥ target rather
 * than by flooring a product: (1 − 0.9) × 10 is 0.9999999999999998 in binary floating point and would
 * floor to 0, while 9 / 10 and the literal 0.9 round to the same double, so B = 1 as meant. The result
 * never lets measured equivalence fall below the target.
 */
export function divergenceBudget(target: number, turns: number): number {
  if (!(target >= 0 && target <= 1))
    throw new RangeError(`targetEquivalence must be in [0, 1], got ${target}`);
  let budget = Math.min(turns, Math.max(0, Math.floor((1 - target) * turns + 1e-9)));
  while (budget > 0 && (turns - budget) / turns < target) budget--;
  return budget;
}

/** One setting of the dial applied to one plan (or summed over several). */
export interface DialPoint {
  readonly target: number;
  readonly turns: number;
  readonly budget: number;
  /** Turns that keep a transform the runner did not confirm (≤ budget). */
  readonly divergent: number;
  /** Share of turns whose decision the runner confirmed: (turns − divergent) / turns. */
  readonly equivalence: number;
  /** Context tokens over all turns, uncompressed. */
  readonly tokens: number;
  /** Tokens saved over all turns at this setting. */
  readonly saved: number;
  /** saved / tokens. */
  readonly savings: number;
}

/** Per-turn levels chosen at one setting of the dial. */
export interface DialChoice extends DialPoint {
  readonly levels: readonly CompressionLevel[];
}

/**
 * The equivalence dial `targetEquivalence` (spec: "Certified-fallback & the equivalence dial"): start from
 * the certified levels, then spend the divergence budget on the turns where the unconfirmed digest saves
 * the most over the certified level (ties: earlier turn first). At 1 it is certified fallback exactly;
 * lowering it only ever swaps a turn to a deeper transform, so savings never fall and divergent turns
 * never exceed the budget.
 */
export function applyDial(plan: FallbackPlan, target: number): DialChoice {
  const turns = plan.turns.length;
  const budget = divergenceBudget(target, turns);
  const levels = plan.turns.map((t) => t.certified);
  const candidates = plan.turns
    .map((t, i) => ({ i, gain: t.tokens[t.certified] - t.tokens.digest, agrees: t.digestAgrees }))
    .filter((c) => !c.agrees && c.gain > 0)
    .sort((a, b) => b.gain - a.gain || a.i - b.i)
    .slice(0, budget);
  for (const c of candidates) levels[c.i] = 'digest';
  const tokens = plan.turns.reduce((sum, t) => sum + t.tokens.none, 0);
  const kept = plan.turns.reduce((sum, t, i) => sum + t.tokens[levels[i]!], 0);
  return {
    target,
    turns,
    budget,
    divergent: candidates.length,
    equivalence: turns === 0 ? 1 : (turns - candidates.length) / turns,
    tokens,
    saved: tokens - kept,
    savings: tokens === 0 ? 0 : (tokens - kept) / tokens,
    levels,
  };
}

/** The savings/equivalence frontier of one plan over the dial (highest target first). */
export function frontier(plan: FallbackPlan, targets: readonly number[] = DEFAULT_TARGETS): DialPoint[] {
  return [...targets]
    .sort((a, b) => b - a)
    .map((target) => {
      const { levels: _levels, ...point } = applyDial(plan, target);
      return point;
    });
}

/**
 * Frontiers of several trajectories summed point by point (each trajectory keeps its own budget, as the
 * dial applies per run): turns, budgets, divergent turns and tokens add up; shares are recomputed.
 */
export function sumFrontiers(frontiers: readonly (readonly DialPoint[])[]): DialPoint[] {
  const first = frontiers[0];
  if (first === undefined) return [];
  return first.map((_, k) => {
    const at = frontiers.map((f) => f[k]!);
    const turns = at.reduce((s, p) => s + p.turns, 0);
    const divergent = at.reduce((s, p) => s + p.divergent, 0);
    const tokens = at.reduce((s, p) => s + p.tokens, 0);
    const saved = at.reduce((s, p) => s + p.saved, 0);
    return {
      target: first[k]!.target,
      turns,
      budget: at.reduce((s, p) => s + p.budget, 0),
      divergent,
      equivalence: turns === 0 ? 1 : (turns - divergent) / turns,
      tokens,
      saved,
      savings: tokens === 0 ? 0 : saved / tokens,
    };
  });
}
