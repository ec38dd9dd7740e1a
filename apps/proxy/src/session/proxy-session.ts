import {
  addressOf,
  type Block,
  type Handle,
  type KeepContext,
  type KeepModel,
  type RestoreStore,
  type TierConfig,
} from '@distil/contract';
import { type CompressedBlock, compressBlock, type SentBlock } from '@distil/core';
import { SpliceMemory } from '../expand/splice-memory.js';
import { PartFailure } from '../fail-open/part-failure.js';
import type { ExpandLearning } from '../operate/expand-learning.js';
import type { CompressPool } from '../pool/compress-pool.js';
import { SessionBranch } from './session-branch.js';
import { toolKind } from './tool-kind.js';

/** What every session of one proxy shares: the pipeline's read-only parts. */
export interface SessionDeps {
  readonly keepModel: KeepModel;
  readonly store: RestoreStore;
  readonly tiers: TierConfig;
  /** The learned policy (what to send whole) and the flywheel counting digests. */
  readonly learning: ExpandLearning;
  /** Worker threads for large new blocks (absent: every block is compressed in this thread). */
  readonly pool?: CompressPool;
}

/** A tool text on its way into the session: its text and its provider id (used as the block id). */
export interface SessionInput {
  readonly id: string | undefined;
  readonly tool: string | undefined;
  readonly text: string;
}

/** The bytes to send for a request's tool texts; the last `added` of them were new in this request. */
export interface EncodedTurn {
  readonly sent: readonly SentBlock[];
  readonly added: number;
  /** Blocks sent whole because compressing them failed, and the first such failure. */
  readonly failed: { readonly count: number; readonly error: unknown } | null;
}

/** Most histories one session keeps apart (a client that rewinds, or sub-conversations sharing a key). */
const MAX_BRANCHES = 4;

/**
 * Everything the proxy remembers about one conversation: its session-layer histories (core `Session`s,
 * one per diverging history), the distil exchanges to splice back into later requests, and whether the
 * distil tools were ever offered (once offered they stay, so the tool list — the very start of the cached
 * prefix — never changes again).
 *
 * A history holds only what the provider shows the model. After a compaction (Anthropic `compaction`
 * blocks, Responses `compaction` items) the context adapters hand over just the tool texts that follow
 * it, so the request starts a new history (a branch that shares no prefix with the old one): nothing in
 * it can be a back-reference or a delta against a block the model no longer sees, and its bytes stay
 * stable from the compaction on.
 */
export class ProxySession {
  readonly splices = new SpliceMemory();
  /** Every handle this session's context has shown (stubs issued, or printed by tools). */
  readonly shownHandles = new Set<string>();
  /** Handles this session issued and already granted to its caller in the store (see handle-owners.ts). */
  readonly grantedHandles = new Set<string>();
  /** Handles whose expand was counted for the flywheel: a conversation's repeats are one piece of evidence. */
  readonly countedExpands = new Set<string>();
  /** Responses API: a response id the client holds → the id its history really continues from. */
  readonly responseAliases = new Map<string, { readonly id: string; readonly pending: readonly unknown[] }>();
  toolsOffered = false;
  // Asked to sleep between requests (see sleep): the session table keeps only the most recent awake.
  #sleepy = false;
  lastUsed = Date.now();
  readonly #deps: SessionDeps;
  #branches: SessionBranch[] = [];
  #lock: Promise<unknown> = Promise.resolve();
  // The anchors each new block is compressed with, and the trusted context its keep model is given:
  // the session's compressor is called with the block alone.
  readonly #anchorsOf = new WeakMap<Block, ReadonlySet<string>>();
  readonly #contextOf = new WeakMap<Block, KeepContext>();
  #nextId = 0;
  // Compression failures of the call in progress (calls are serialised, so one record suffices).
  #failed: { count: number; error: unknown } | null = null;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
  }

  /**
   * The bytes to send for each tool text of a request, in order. Texts the session already sent keep
   * their bytes; only the new suffix is encoded (dedup, cache-delta, skeleton, or the pipeline). A request
   * whose history diverges from every branch forks the branch it shares the longest prefix with.
   * `anchors` is called only when there is something new to compress. Calls are serialised.
   */
  encode(
    inputs: readonly SessionInput[],
    anchors: () => ReadonlySet<string>,
    context?: (input: SessionInput) => KeepContext,
  ): Promise<EncodedTurn> {
    const run = this.#lock.then(() => this.#encode(inputs, anchors, context));
    this.#lock = run.catch(() => undefined).then(() => this.#sleepIfAsked());
    return run;
  }

  /**
   * Encodes tool texts that continue the most recent history without repeating it (a Responses request
   * chained by `previous_response_id` carries only its new items; the provider holds the rest).
   */
  append(
    inputs: readonly SessionInput[],
    anchors: () => ReadonlySet<string>,
    context?: (input: SessionInput) => KeepContext,
  ): Promise<EncodedTurn> {
    const run = this.#lock.then(async () => {
      this.lastUsed = Date.now();
      this.#failed = null;
      let branch = this.#branches.reduce<SessionBranch | undefined>(
        (latest, b) => (!latest || b.lastUsed > latest.lastUsed ? b : latest),
        undefined,
      );
      // A sleeping branch cannot wake without its texts, which a chained request does not resend: the
      // new items start a history of their own, as they would after the session was dropped.
      if (!branch?.awake) {
        branch = new SessionBranch(this.#sessionOptions());
        this.#branches.push(branch);
        this.#trimBranches();
      }
      branch.lastUsed = Date.now();
      const known = branch.context.length;
      const current = inputs.length > 0 ? anchors() : new Set<string>();
      await branch.add(
        inputs.map((input) => this.#block(input, current, context?.(input))),
        false,
      );
      this.#trackDigests(branch, known);
      return { sent: branch.context.slice(known), added: inputs.length, failed: this.#failed };
    });
    this.#lock = run.catch(() => undefined).then(() => this.#sleepIfAsked());
    return run;
  }

  /** Marks a handle expanded in every branch: its content is sent whole from now on. */
  markExpanded(handle: Handle): void {
    for (const branch of this.#branches) branch.markExpanded(handle);
  }

  /** Whether any of its histories holds its original texts (see sleep). */
  get awake(): boolean {
    return this.#branches.some((branch) => branch.awake);
  }

  /**
   * Drops the original texts of every branch the client resends (see SessionBranch.sleep), after the
   * request in progress if there is one, and again after each later request until stayAwake: a request
   * wakes the branch it continues, and leaves it asleep.
   */
  sleep(): void {
    this.#sleepy = true;
    this.#lock = this.#lock.then(() => this.#sleepIfAsked());
  }

  /** Keeps the original texts between requests again (the session is among the most recently used). */
  stayAwake(): void {
    this.#sleepy = false;
  }

  #sleepIfAsked(): void {
    if (this.#sleepy) for (const branch of this.#branches) branch.sleep();
  }

  async #encode(
    inputs: readonly SessionInput[],
    anchors: () => ReadonlySet<string>,
    context?: (input: SessionInput) => KeepContext,
  ): Promise<EncodedTurn> {
    this.lastUsed = Date.now();
    this.#failed = null;
    const texts = inputs.map((input) => input.text);
    // a sleeping branch compares digests: each text is hashed once, and only as far as one is compared
    const digests: string[] = [];
    const digestOf = (i: number): string => (digests[i] ??= addressOf(texts[i]!).digest);
    let best: SessionBranch | undefined;
    let bestLength = -1;
    let exact: SessionBranch | undefined;
    for (const branch of this.#branches) {
      const length = branch.matchLength(texts, digestOf);
      if (length === branch.length && (!exact || length > exact.length)) exact = branch;
      if (length > bestLength) {
        best = branch;
        bestLength = length;
      }
    }
    let branch = exact;
    if (branch) branch.wake(texts);
    else {
      branch =
        best && bestLength > 0 ? best.fork(bestLength, texts) : new SessionBranch(this.#sessionOptions());
      this.#branches.push(branch);
      this.#trimBranches();
    }
    branch.lastUsed = Date.now();
    const known = branch.context.length;
    if (known < inputs.length) {
      const current = anchors();
      const blocks = inputs.slice(known).map((input) => this.#block(input, current, context?.(input)));
      await branch.add(blocks);
      this.#trackDigests(branch, known);
    }
    return {
      sent: branch.context.slice(0, inputs.length),
      added: Math.max(0, inputs.length - known),
      failed: this.#failed,
    };
  }

  /** Keeps the MAX_BRANCHES most recently used branches. */
  #trimBranches(): void {
    if (this.#branches.length <= MAX_BRANCHES) return;
    this.#branches.sort((a, b) => b.lastUsed - a.lastUsed);
    this.#branches.length = MAX_BRANCHES;
  }

  /**
   * Counts the blocks a branch sent from `from` on that the model sees changed behind handles (folded,
   * re-encoded, or as a skeleton): the digests the flywheel weighs expands against. Only blocks new in
   * this request — a fork's replay of blocks already sent is not counted again.
   */
  #trackDigests(branch: SessionBranch, from: number): void {
    for (const sent of branch.context.slice(from)) {
      if (sent.encoding === 'compressed' || sent.encoding === 'skeleton') {
        this.#deps.learning.trackDigest(sent.block, sent.handles);
      }
    }
  }

  #block(input: SessionInput, anchors: ReadonlySet<string>, context: KeepContext | undefined): Block {
    const block: Block = {
      id: input.id && input.id.length > 0 ? input.id : `t${this.#nextId++}`,
      role: 'tool',
      kind: toolKind(input.text),
      text: input.text,
      trusted: false,
      ...(input.tool ? { tool: input.tool } : {}),
    };
    this.#anchorsOf.set(block, anchors);
    if (context) this.#contextOf.set(block, context);
    return block;
  }

  #sessionOptions(): SessionBranch['options'] {
    const { keepModel, store, tiers, learning, pool } = this.#deps;
    return {
      store,
      // a signature the learned policy protects goes out byte-exact: no fold, re-encoding or skeleton
      // (asked once per block: a fork or a woken branch continues from the bytes sent, never replays)
      sendWhole: (block) => learning.sendsWhole(block),
      compress: async (block) => {
        const anchors = this.#anchorsOf.get(block);
        const context = this.#contextOf.get(block);
        let result: CompressedBlock;
        try {
          const options = {
            keepModel,
            store,
            tiers,
            ...(anchors ? { anchors } : {}),
            ...(context ? { context } : {}),
          };
          result = await (pool ? pool.compress(block, options) : compressBlock(block, options));
        } catch (error) {
          // A store that is down fails every block: the request goes upstream untouched and the block
          // is compressed once the store is back. Anything else (the keep model throwing, an original
          // too large for the store, a transform's bug) concerns this block only: it goes out whole, for
          // good (its bytes must stay the same in every later turn), and the others are still compressed.
          if (error instanceof PartFailure && error.reason === 'store') throw error;
          this.#failed = { count: (this.#failed?.count ?? 0) + 1, error: this.#failed?.error ?? error };
          result = {
            text: block.text,
            handles: [],
            tier: 'none',
            kind: block.kind,
            note: 'compression failed',
          };
        }
        return result;
      },
    };
  }
}
