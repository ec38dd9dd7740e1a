import type { Block, ContentKind, Trajectory } from '@distil/contract';
import { countTokens } from '@distil/core';
import { sameReplay } from './decision-key.js';
import { mapLimit } from './map-limit.js';
import { type Replayed, type Runner, type RunnerEvidence, replayTurns, runnerEvidence } from './runner.js';

/** Called as replays complete: `done` of `total` (block, turn) replays. */
export type ProgressCallback = (done: number, total: number) => void;

/** Options of {@link ablate}. */
export interface AblationOptions {
  readonly runner: Runner;
  readonly onProgress?: ProgressCallback;
  /**
   * Replay every occurrence of a block even after it changed a decision (default false: one change
   * settles the verdict, and with a live runner each replay is a paid call).
   */
  readonly exhaustive?: boolean;
}

/** What ablation found for one block. */
export interface BlockVerdict {
  readonly id: string;
  readonly kind: ContentKind;
  /** Turn that added the block. */
  readonly addedAt: number;
  /** Replayed turns whose context holds the block. */
  readonly occurrences: number;
  /** Tokens of the block's text (o200k_base). */
  readonly tokens: number;
  /**
   * Text the operator wrote (the system prompt, the user's task and instructions): always kept and never
   * ablated. A runner that sees no copied token from the task would otherwise rate the task droppable.
   */
  readonly trusted: boolean;
  /** True when removing the block changed some decision: it must be kept. */
  readonly changedDecision: boolean;
  /** Turns whose decision changed without the block (the first only, unless exhaustive). */
  readonly changedTurns: readonly number[];
  /**
   * In the pruned set: inert alone, and removing it together with every other block of the set still
   * changes no decision. Two blocks that repeat each other are each inert alone, but not both droppable.
   */
  readonly droppable: boolean;
  /** Structural runner only: the copied tokens that vanished with the block at the first changed turn. */
  readonly lost?: readonly string[];
}

/** Causal ablation of one trajectory. */
export interface AblationReport extends RunnerEvidence {
  readonly trajectory: string;
  /** Turns with a decision. */
  readonly turns: number;
  readonly blocks: readonly BlockVerdict[];
  /** Tokens of the pruned set: free to drop, all together, under this runner (certified only if `certified`). */
  readonly freeTokens: number;
  readonly freeBlocks: number;
  /** Runner decisions asked for (references included). */
  readonly replays: number;
}

/**
 * Causal / counterfactual pruning (spec: "Causal / counterfactual pruning"): for each block, remove it
 * from every context that holds it and replay; a block whose removal never changed a decision, across all
 * its occurrences, is causally inert. "Changed" is judged against the same runner's decision on the full
 * context, so a live model's own choice is the reference, not the recorded one.
 *
 * Single-block ablation alone does not license dropping every inert block at once (a fact repeated in
 * two blocks makes each inert alone), so the inert blocks are then removed together and replayed; if a
 * decision changes, the pruned set is rebuilt greedily, largest block first, keeping a block out only
 * when the whole set still replays unchanged. The free tokens are those of that verified set.
 */
export async function ablate(trajectory: Trajectory, options: AblationOptions): Promise<AblationReport> {
  const { runner } = options;
  const turns = replayTurns(trajectory);
  const references = await mapLimit(turns, runner.concurrency, (turn) => runner.decide(turn.reference, turn));
  const blocks = trajectory.turns.flatMap((turn, addedAt) =>
    turn.blocks.map((block) => ({ block, addedAt })),
  );
  // Trusted blocks are kept whatever a replay says, so they are never replayed.
  const ablated = blocks.filter(({ block }) => !block.trusted);
  const occurrencesOf = (addedAt: number): number[] =>
    turns.flatMap((t, i) => (t.turn >= addedAt ? [i] : []));
  let total = ablated.reduce((sum, b) => sum + occurrencesOf(b.addedAt).length, 0);
  let done = 0;
  let replays = turns.length;
  const progress = (n: number): void => {
    done += n;
    options.onProgress?.(done, total);
  };
  options.onProgress?.(0, total);

  const verdicts = await mapLimit(blocks, runner.concurrency, async ({ block, addedAt }) => {
    const tokens = countTokens(block.text);
    if (block.trusted) return { changedTurns: [], lost: undefined, tokens };
    const occurrences = occurrencesOf(addedAt);
    const changedTurns: number[] = [];
    let lost: readonly string[] | undefined;
    for (let n = 0; n < occurrences.length; n++) {
      const i = occurrences[n]!;
      const turn = turns[i]!;
      const replayed = await runner.decide(without(turn.reference, block), turn);
      replays++;
      progress(1);
      if (!sameReplay(replayed, references[i]!)) {
        changedTurns.push(turn.turn);
        lost ??= lostTokens(replayed, references[i]!);
        if (options.exhaustive !== true) {
          progress(occurrences.length - n - 1);
          break;
        }
      }
    }
    return { changedTurns, lost, tokens };
  });

  // Joint check: every inert block out at once, then greedy rebuilding if that changes a decision.
  const inert = blocks.flatMap(({ block }, i) =>
    !block.trusted && verdicts[i]!.changedTurns.length === 0 ? [{ block, tokens: verdicts[i]!.tokens }] : [],
  );
  /**
   * Whether every turn whose context holds a block of `focus` replays unchanged with all of `removed`
   * gone. Turns without a focus block see the context an earlier, successful check already verified.
   */
  const agreesWithout = async (removed: ReadonlySet<Block>, focus: ReadonlySet<Block>): Promise<boolean> => {
    const affected = turns.flatMap((t, i) => (t.reference.some((b) => focus.has(b)) ? [i] : []));
    total += affected.length;
    for (let n = 0; n < affected.length; n++) {
      const i = affected[n]!;
      const turn = turns[i]!;
      replays++;
      progress(1);
      const replayed = await runner.decide(
        turn.reference.filter((b) => !removed.has(b)),
        turn,
      );
      if (!sameReplay(replayed, references[i]!)) {
        progress(affected.length - n - 1);
        return false;
      }
    }
    return true;
  };
  let pruned = new Set(inert.map((b) => b.block));
  if (inert.length > 1 && !(await agreesWithout(pruned, pruned))) {
    pruned = new Set();
    for (const { block } of [...inert].sort((a, b) => b.tokens - a.tokens)) {
      const trial = new Set([...pruned, block]);
      if (await agreesWithout(trial, new Set([block]))) pruned = trial;
    }
  }

  const report: BlockVerdict[] = blocks.map(({ block, addedAt }, i) => {
    const v = verdicts[i]!;
    return {
      id: block.id,
      kind: block.kind,
      addedAt,
      occurrences: occurrencesOf(addedAt).length,
      tokens: v.tokens,
      trusted: block.trusted,
      changedDecision: v.changedTurns.length > 0,
      changedTurns: v.changedTurns,
      droppable: pruned.has(block),
      ...(v.lost === undefined ? {} : { lost: v.lost }),
    };
  });
  const free = report.filter((v) => v.droppable);
  return {
    trajectory: trajectory.id,
    ...runnerEvidence(runner),
    turns: turns.length,
    blocks: report,
    freeTokens: free.reduce((sum, v) => sum + v.tokens, 0),
    freeBlocks: free.length,
    replays,
  };
}

function without(context: readonly Block[], block: Block): Block[] {
  return context.filter((b) => b !== block);
}

function lostTokens(replayed: Replayed, reference: Replayed): readonly string[] | undefined {
  return replayed.kind === 'unreproducible' && reference.kind === 'decision' ? replayed.missing : undefined;
}
