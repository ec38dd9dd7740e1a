import type { Block, Trajectory } from '@distil/contract';
import type { ProgressCallback } from './ablation.js';
import type { CompressionLadder, CompressionLevel } from './compression-ladder.js';
import { sameReplay } from './decision-key.js';
import { mapLimit } from './map-limit.js';
import { type Replayed, type ReplayTurn, type Runner, replayTurns } from './runner.js';

/** What certification found at one turn. */
export interface TurnCertificate {
  /** Index of the turn in the trajectory. */
  readonly turn: number;
  /** Tokens of the turn's whole context at each level. */
  readonly tokens: Readonly<Record<CompressionLevel, number>>;
  /** Whether the runner decides the same on the digest context as on the full one. */
  readonly digestAgrees: boolean;
  /** The same for the lossless context; null when it was not needed (the digest agreed). */
  readonly losslessAgrees: boolean | null;
  /** The deepest level the runner confirmed: digest, else lossless, else none. */
  readonly certified: CompressionLevel;
}

/** Certified fallback over one trajectory. */
export interface FallbackPlan {
  readonly trajectory: string;
  readonly runner: string;
  readonly turns: readonly TurnCertificate[];
}

/** Options of {@link certifyFallback}. */
export interface FallbackOptions {
  readonly runner: Runner;
  readonly ladder: CompressionLadder;
  readonly onProgress?: ProgressCallback;
}

/**
 * Certified fallback (spec: "Certified-fallback & the equivalence dial"): for each turn, keep the deepest
 * transform only if the runner confirms the decision unchanged — else the lossless tier if the runner
 * confirms that, else no compression. Every level is judged by the same runner against its own decision
 * on the full context, so the chosen contexts are 100% decision-equivalent under that runner by
 * construction. Each turn's request is certified on its own; a context identical to the full one (nothing
 * compressed) agrees without a replay.
 */
export async function certifyFallback(
  trajectory: Trajectory,
  options: FallbackOptions,
): Promise<FallbackPlan> {
  const { runner, ladder } = options;
  const turns = replayTurns(trajectory);
  let done = 0;
  options.onProgress?.(0, turns.length);
  const certificates = await mapLimit(turns, runner.concurrency, async (turn) => {
    const certificate = await certifyTurn(turn, runner, ladder);
    options.onProgress?.(++done, turns.length);
    return certificate;
  });
  return { trajectory: trajectory.id, runner: runner.id, turns: certificates };
}

async function certifyTurn(
  turn: ReplayTurn,
  runner: Runner,
  ladder: CompressionLadder,
): Promise<TurnCertificate> {
  const full = turn.reference;
  const digest = await ladder.context(full, 'digest');
  const lossless = await ladder.context(full, 'lossless');
  const tokens = {
    none: ladder.tokens(full),
    lossless: ladder.tokens(lossless),
    digest: ladder.tokens(digest),
  };
  let reference: Replayed | undefined;
  const agrees = async (context: readonly Block[]): Promise<boolean> => {
    if (sameBlocks(context, full)) return true;
    reference ??= await runner.decide(full, turn);
    return sameReplay(await runner.decide(context, turn), reference);
  };
  const digestAgrees = await agrees(digest);
  const losslessAgrees = digestAgrees ? null : await agrees(lossless);
  const certified: CompressionLevel = digestAgrees ? 'digest' : losslessAgrees ? 'lossless' : 'none';
  return { turn: turn.turn, tokens, digestAgrees, losslessAgrees, certified };
}

function sameBlocks(a: readonly Block[], b: readonly Block[]): boolean {
  return a.length === b.length && a.every((block, i) => block === b[i]);
}
