import type { KeepModel, PricingConfig, ProxyConfig, RestoreStore } from '@distil/contract';
import type { Dispatcher } from 'undici';
import type { RewriteMemory } from './context/last-rewrite.js';
import type { BypassReason } from './fail-open/part-failure.js';
import type { LiteralCache } from './json/literal-cache.js';
import type { SubtreeMemo } from './json/subtree-memo.js';
import type { ExchangeObserver } from './operate/exchange-observer.js';
import type { ExpandLearning } from './operate/expand-learning.js';
import type { SyncsOwed } from './pool/syncs-owed.js';
import type { SavingsLedger } from './savings/savings-ledger.js';
import type { SessionTable } from './session/session-table.js';

/** Everything a request handler needs, shared by all requests of one proxy. */
export interface ProxyRuntime {
  readonly config: ProxyConfig;
  readonly pricing: PricingConfig;
  readonly store: RestoreStore;
  /**
   * Puts a request's handle grants (handle-owners.ts) into the store: from a compress worker when the
   * workers write the proxy's disk store (CompressPool.putInDiskStore), else from this thread.
   */
  readonly putGrants: (grants: readonly Uint8Array[]) => Promise<void>;
  /** The fsyncs the disk store owes for records put in place, by handle; a reply waits for its handles'. */
  readonly syncs: SyncsOwed;
  readonly keepModel: KeepModel;
  readonly agent: Dispatcher;
  readonly sessions: SessionTable;
  /** The expand flywheel: digests and answered expands counted, protected signatures sent whole. */
  readonly learning: ExpandLearning;
  readonly ledger: SavingsLedger;
  readonly excludedTools: ReadonlySet<string>;
  /** Long JSON strings of recent request bodies, decoded and encoded (see LiteralCache). */
  readonly literals: LiteralCache;
  /** Objects of recent request bodies, by their bytes, that a scan skips (see SubtreeMemo). */
  readonly subtrees: SubtreeMemo;
  /** The last rewrite of recent conversations, which their next request repeats (see last-rewrite.ts). */
  readonly rewrites: RewriteMemory;
  /** One line per event; never given request content or credentials. */
  readonly log: (line: string) => void;
  /** Sees every provider request the proxy handles (metrics, shadow mode). */
  readonly observe?: ExchangeObserver;
  /** Counts one time Distil stood aside (the `distil_bypass_total` metric). */
  readonly onBypass?: (reason: BypassReason) => void;
  /** Whether the configured keep model failed to load and the salience rules run in its place. */
  readonly keepModelFallback?: boolean;
}
