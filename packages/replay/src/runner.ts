import type { Block, Decision, Trajectory } from '@distil/contract';

/**
 * One turn to replay: the full, uncompressed context the agent saw and what it did. A runner is asked to
 * decide on some other context (a block removed, blocks compressed) and the answer is compared with what
 * the same runner decides on `reference`.
 */
export interface ReplayTurn {
  readonly trajectoryId: string;
  /** Index of the turn in the trajectory. */
  readonly turn: number;
  /** The decision the agent recorded at this turn. */
  readonly recorded: Decision;
  /** The full context at this turn: the blocks of turns 0..turn, in order (contract: append-only). */
  readonly reference: readonly Block[];
  /** The decisions of the earlier turns, oldest first (what the agent already did). */
  readonly earlier: readonly (Decision | null)[];
  /** Every tool the trajectory calls, sorted: the tools a live model is offered. */
  readonly tools: readonly string[];
  /** The turn that added each block, by block id (shared by every turn of a trajectory). */
  readonly addedAt: ReadonlyMap<string, number>;
}

/**
 * What a runner decided on a context: a decision, or — for a runner that can only confirm recorded
 * decisions — the statement that this context cannot reproduce it, with the reason.
 */
export type Replayed =
  | { readonly kind: 'decision'; readonly decision: Decision }
  | { readonly kind: 'unreproducible'; readonly missing: readonly string[] };

/** Maps a context to a decision. */
export interface Runner {
  /** e.g. `structural`, `anthropic:claude-sonnet-4-5`. */
  readonly id: string;
  /** How many decisions may be asked for at once (1 for a CPU-bound runner, more for an HTTP one). */
  readonly concurrency: number;
  /**
   * What an unchanged decision rests on, as verdicts quote it: "no copied token lost" for the structural
   * runner, "the model decided the same" for a live one. Default: "decision unchanged".
   */
  readonly basis?: string;
  /**
   * Whether a model made the decisions. Only then is an unchanged decision called certified: a heuristic
   * runner's verdict is a report of what it can see, not proof (default false).
   */
  readonly certifies?: boolean;
  /** The decision on `context` at `turn` (whose `reference` is the full context of that turn). */
  decide(context: readonly Block[], turn: ReplayTurn): Promise<Replayed>;
}

/**
 * The turns of a trajectory that carry a decision, each with its full context. Turns without a decision
 * (a run that stopped) have nothing to replay and are left out.
 */
export function replayTurns(trajectory: Trajectory): ReplayTurn[] {
  const tools = new Set<string>();
  for (const turn of trajectory.turns) {
    if (turn.decision?.type === 'tool_call') tools.add(turn.decision.tool);
  }
  const sortedTools = [...tools].sort();
  const addedAt = new Map<string, number>();
  trajectory.turns.forEach((turn, index) => {
    for (const block of turn.blocks) if (!addedAt.has(block.id)) addedAt.set(block.id, index);
  });
  const context: Block[] = [];
  const earlier: (Decision | null)[] = [];
  const turns: ReplayTurn[] = [];
  trajectory.turns.forEach((turn, index) => {
    context.push(...turn.blocks);
    if (turn.decision !== null) {
      turns.push({
        trajectoryId: trajectory.id,
        turn: index,
        recorded: turn.decision,
        reference: context.slice(),
        earlier: earlier.slice(),
        tools: sortedTools,
        addedAt,
      });
    }
    earlier.push(turn.decision);
  });
  return turns;
}

/** How a runner's verdicts are worded: who made them, on what basis, and whether they certify. */
export interface RunnerEvidence {
  readonly runner: string;
  readonly basis: string;
  readonly certified: boolean;
}

/** The evidence behind a runner's verdicts, with the defaults of {@link Runner} filled in. */
export function runnerEvidence(runner: Runner): RunnerEvidence {
  return {
    runner: runner.id,
    basis: runner.basis ?? 'decision unchanged',
    certified: runner.certifies === true,
  };
}
