import type { Block, ContentKind } from '@distil/contract';
import { type BlockCompressor, type CompressOptions, compressBlock, distilHome } from '@distil/core';
import {
  DEFAULT_EXPAND_THRESHOLDS,
  type ExpandStats,
  type ExpandThresholds,
  expandCrosses,
  readExpandStats,
} from './expand-flywheel.js';
import {
  DEFAULT_GUIDELINE_THRESHOLDS,
  type GuidelineStats,
  type GuidelineThresholds,
  guidelineCrosses,
  readGuidelineStats,
} from './guideline-flywheel.js';
import { signatureOf } from './signature.js';

/** Why a signature is protected. */
export type ProtectionReason = 'expands' | 'regressions';

/** One row of the learned policy. */
export interface PolicyEntry {
  readonly signature: string;
  readonly digests: number;
  readonly expands: number;
  readonly runs: number;
  readonly regressions: number;
  readonly protectedBy: readonly ProtectionReason[];
  /** Digested in at least one regressed run, not (yet) protected. */
  readonly suspect: boolean;
}

/**
 * What both flywheels learned, as one policy the compressor and the proxy consult: a protected signature
 * is never digested (its blocks go out lossless). Built from the stored statistics; protection comes from
 * either flywheel, and nothing here can remove it.
 */
export class LearnedPolicy {
  private readonly protectedSet: ReadonlySet<string>;

  constructor(
    readonly expand: ExpandStats,
    readonly guideline: GuidelineStats,
    readonly thresholds: { readonly expand: ExpandThresholds; readonly guideline: GuidelineThresholds } = {
      expand: DEFAULT_EXPAND_THRESHOLDS,
      guideline: DEFAULT_GUIDELINE_THRESHOLDS,
    },
  ) {
    this.protectedSet = new Set(
      this.entries().flatMap((e) => (e.protectedBy.length > 0 ? [e.signature] : [])),
    );
  }

  /** The policy learned under `home` (default $DISTIL_HOME); empty when nothing was learned yet. */
  static load(home: string = distilHome()): LearnedPolicy {
    return new LearnedPolicy(readExpandStats(home), readGuidelineStats(home));
  }

  /** Whether blocks of `signature` must be kept byte-exact (never digested). */
  isProtected(signature: string): boolean {
    return this.protectedSet.has(signature);
  }

  /** Every protected signature, sorted. */
  protectedSignatures(): string[] {
    return [...this.protectedSet].sort();
  }

  /** The depth to compress `block` at: `lossless` when its signature is protected, else `requested`. */
  depthFor(
    block: { kind: ContentKind; text: string },
    requested: 'lossless' | 'digest',
  ): 'lossless' | 'digest' {
    return requested === 'digest' && protects(this, block) ? 'lossless' : requested;
  }

  /** Every signature either flywheel has seen, with its counts and verdict, sorted by signature. */
  entries(): PolicyEntry[] {
    const keys = new Set([...Object.keys(this.expand.signatures), ...Object.keys(this.guideline.signatures)]);
    return [...keys].sort().map((signature) => {
      const e = this.expand.signatures[signature];
      const g = this.guideline.signatures[signature];
      const protectedBy: ProtectionReason[] = [];
      if (e && (e.protectedSince !== null || expandCrosses(e.digests, e.expands, this.thresholds.expand))) {
        protectedBy.push('expands');
      }
      if (
        g &&
        (g.protectedSince !== null || guidelineCrosses(g.runs, g.regressions, this.thresholds.guideline))
      ) {
        protectedBy.push('regressions');
      }
      return {
        signature,
        digests: e?.digests ?? 0,
        expands: e?.expands ?? 0,
        runs: g?.runs ?? 0,
        regressions: g?.regressions ?? 0,
        protectedBy,
        suspect: protectedBy.length === 0 && (g?.regressions ?? 0) > 0,
      };
    });
  }
}

/** What can say whether a signature is protected: a LearnedPolicy, a live ExpandFlywheel, or both. */
export interface ProtectionSource {
  isProtected(signature: string): boolean;
}

/**
 * Whether `policy` keeps `block` byte-exact: the one place a block is matched against the learned policy,
 * by the signature of its original (what the flywheels count), for `distil compress` and the proxy alike.
 */
export function protects(policy: ProtectionSource, block: Pick<Block, 'kind' | 'text'>): boolean {
  return policy.isProtected(signatureOf(block));
}

/**
 * The pipeline's compressBlock under a learned policy, as a BlockCompressor for a Session: blocks of a
 * protected signature are sent byte-exact. `isProtected` may be a LearnedPolicy's or a live
 * ExpandFlywheel's.
 */
export function policyCompressor(options: CompressOptions, policy: ProtectionSource): BlockCompressor {
  return (block: Block) => {
    const depth = options.depth ?? 'digest';
    // a protected signature is sent byte-exact: not digested, not re-encoded either
    if (depth === 'digest' && protects(policy, block)) {
      return Promise.resolve({
        text: block.text,
        handles: [],
        tier: 'none',
        kind: block.kind,
        note: 'protected by the learned policy',
      });
    }
    return compressBlock(block, options);
  };
}
