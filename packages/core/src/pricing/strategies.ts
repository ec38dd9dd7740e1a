import type { KeepModel, RestoreStore, Trajectory } from '@distil/contract';
import type { BlockCompressor } from '../session/block-compressor.js';
import { Session, type SessionOptions } from '../session/session.js';
import { compressWholeContext } from './naive-compressor.js';
import type { RequestSegment } from './request-cost.js';

/** What a strategy needs to turn a trajectory into requests. */
export interface StrategyContext {
  /** The per-block compressor (the pipeline's compressBlock, bound to its options). */
  readonly compress: BlockCompressor;
  readonly store: RestoreStore;
  /** Scores lines for the naive strategy's whole-context budget (the same model the compressor uses). */
  readonly keepModel: KeepModel;
  /** Fraction of the context's lines the naive strategy keeps (default 0.5, LLMLingua's default rate). */
  readonly naiveKeepRatio?: number;
  /** The model's minimum cacheable prompt, which the Distil session respects (see SessionOptions). */
  readonly minCacheableTokens?: number;
  /** Session options for the Distil strategy (skeletons, dedup, deltas). */
  readonly session?: Omit<SessionOptions, 'compress' | 'store'>;
}

/** A way of sending a trajectory: its label in reports, whether it uses the cache, and its requests. */
export interface Strategy {
  readonly label: string;
  readonly cached: boolean;
  /** The request of every turn, as the segments (blocks) it sends, in order. */
  readonly requests: (trajectory: Trajectory, context: StrategyContext) => Promise<RequestSegment[][]>;
}

/** Every block of the context, as the agent produced it, turn by turn (context is append-only). */
async function uncompressed(trajectory: Trajectory): Promise<RequestSegment[][]> {
  const requests: RequestSegment[][] = [];
  const context: RequestSegment[] = [];
  for (const turn of trajectory.turns) {
    for (const block of turn.blocks) context.push(block.text);
    requests.push([...context]);
  }
  return requests;
}

/**
 * The naive strategy: every turn it re-compresses the whole conversation as one document under one
 * budget (see compressWholeContext), so each request rewrites the prefix the previous one cached.
 */
async function naive(trajectory: Trajectory, context: StrategyContext): Promise<RequestSegment[][]> {
  const requests: RequestSegment[][] = [];
  const texts: string[] = [];
  for (const turn of trajectory.turns) {
    for (const block of turn.blocks) texts.push(block.text);
    const whole = texts.join('\n\n');
    requests.push([await compressWholeContext(whole, context.keepModel, context.naiveKeepRatio ?? 0.5)]);
  }
  return requests;
}

/** Distil: the session layer, which encodes each block once and never touches what was already sent. */
async function distil(trajectory: Trajectory, context: StrategyContext): Promise<RequestSegment[][]> {
  const session = new Session({
    minCacheableTokens: context.minCacheableTokens,
    ...context.session,
    compress: context.compress,
    store: context.store,
  });
  const requests: RequestSegment[][] = [];
  for (const turn of trajectory.turns) {
    const sent = await session.addTurn(turn.blocks);
    requests.push(sent.context.map((block) => block.text));
  }
  return requests;
}

/** The four strategies of the spec's `distil savings` table, in its order. */
export const STRATEGIES = Object.freeze({
  baseline: { label: 'baseline (no cache, no compress)', cached: false, requests: uncompressed },
  'cache-only': { label: 'cache only', cached: true, requests: uncompressed },
  naive: {
    label: 'naive compress + cache (a model of budget compressors, 50% of lines kept)',
    cached: true,
    requests: naive,
  },
  distil: { label: 'distil (cache-aware)', cached: true, requests: distil },
} satisfies Record<string, Strategy>);

/** A strategy's name. */
export type StrategyName = keyof typeof STRATEGIES;
