import {
  addressOf,
  type Block,
  type ContentAddress,
  DECISION_MARKER,
  type Handle,
  type RestoreStore,
} from '@distil/contract';
import { countTokens } from '../tokens.js';
import { compareSource } from './ast-delta.js';
import type { BlockCompressor } from './block-compressor.js';
import { ReReadIndex } from './re-read-index.js';
import { ReadView } from './read-view.js';
import {
  astDeltaReference,
  astUnchangedReference,
  diffReference,
  type EarlierBlock,
  exactReference,
  rangeReference,
  shiftHunks,
} from './references.js';
import type { SentBlock, SentEncoding } from './sent-block.js';
import { type SkeletonOptions, skeletonDigest } from './skeleton.js';
import { detectSourceLanguage } from './source-outline.js';
import { textDelta } from './text-delta.js';

/**
 * A re-read that inserts or deletes more than this share of its lines is not a near-duplicate worth a
 * diff (the diff would be most of the file, and harder to read than the file).
 */
const MAX_EDITED_SHARE = 0.25;

/** A diff this short is sent as it is: no structural view of the file could be much smaller. */
const AST_WORTHWHILE_CHARS = 600;

/** How a session encodes new blocks. Every technique is on by default. */
export interface SessionOptions {
  /** Compresses a block that is neither a re-send nor a re-read (the pipeline's compressBlock). */
  readonly compress: BlockCompressor;
  /** Where the originals behind references, deltas and skeleton folds are kept. */
  readonly store: RestoreStore;
  /** Cross-turn dedup: an exact re-send becomes a back-reference (default true). */
  readonly dedup?: boolean;
  /** Cache-delta coding: a near-duplicate re-read becomes a reference plus a unified diff (default true). */
  readonly cacheDelta?: boolean;
  /** AST-structural delta for Python and TypeScript/JavaScript re-reads (default true). */
  readonly astDelta?: boolean;
  /** Skeleton digest of large source files (default on); `false` for a lossless-only session. */
  readonly skeleton?: boolean | SkeletonOptions;
  /**
   * Blocks to send byte-exact whatever else would apply — no reference, delta, skeleton or compression
   * (a learned policy's protected signatures). Asked each time a block is encoded; a caller that replays
   * blocks into a new session must answer as it did the first time, or the replayed bytes differ.
   */
  readonly sendWhole?: (block: Block) => boolean;
  /** Blocks shorter than this many characters are always sent as they are compressed (default 200). */
  readonly minReferenceChars?: number;
  /** A delta is sent only when it is at most this fraction of the full text's length (default 0.5). */
  readonly maxDeltaRatio?: number;
  /** Share of distinct lines a re-read must have in common with its earlier version (default 0.5). */
  readonly minShare?: number;
  /**
   * The model's minimum cacheable prompt (tokens; default 0). Until the context reaches it, new blocks go
   * out as they are: a prompt below the minimum is never cached, so compressing it early only keeps it
   * uncached for more turns — paying full input price where the uncompressed prompt would already be
   * reading from the cache.
   */
  readonly minCacheableTokens?: number;
}

/** What one turn sent: the new blocks, and the whole context (every earlier block's bytes unchanged). */
export interface SessionTurn {
  readonly turn: number;
  readonly added: readonly SentBlock[];
  readonly context: readonly SentBlock[];
}

/**
 * What a session has sent and what shapes its next turn, as `Session.resume` continues it: a proxy can
 * drop a session's original texts between requests (the client sends them again) and rebuild it from
 * this and the resent texts, or continue a prefix of it when a client rewinds.
 */
export interface SessionHistory {
  /** Every block sent so far, in order. */
  readonly context: readonly SentBlock[];
  /** Handles the agent expanded (sticky expansion). */
  readonly sticky: readonly Handle[];
  /** Turns encoded so far (a turn may add no block). */
  readonly turns: number;
  /** The context's counted tokens after each block (see minCacheableTokens), one entry per block. */
  readonly countedTokens: readonly number[];
  /**
   * The content address of each block's original text, for as many leading blocks as are known: resume
   * takes them instead of hashing those texts again (a woken 200 KB conversation hashed them twice).
   */
  readonly addresses?: readonly ContentAddress[];
}

/** An earlier block as the session remembers it. */
interface Remembered {
  readonly sent: SentBlock;
  /** Carries no decision marker: only inert blocks are ever referenced (spec: cross-turn dedup). */
  readonly inert: boolean;
  /** The tool's output without the client's wrapper and line numbers, as re-reads compare it. */
  readonly view: ReadView;
  /** The content address of the block's original text. */
  readonly address: ContentAddress;
}

/**
 * A multi-turn session (spec: delta / append-only context, cross-turn dedup, cache-delta context coding,
 * AST-structural delta, sticky expansion). Context is append-only: every block is encoded once, when it
 * is first added, and sent with the same bytes in every later turn, so the prompt cache's prefix match
 * survives. Only the new suffix is ever transformed:
 *   exact re-send            → back-reference to the earlier occurrence;
 *   partial re-read          → back-reference to the lines of an earlier read that showed them;
 *   near-duplicate re-read   → reference + unified diff (or, for source, the definitions that changed);
 *   anything else            → the block compressor (or a skeleton, for a large source file).
 * Re-reads are matched on the tool's output alone (see ReadView): a client's wrapper (Codex's exec
 * header, a reminder) goes out verbatim around the reference, and a file read's line numbers are cut
 * off before comparing, so an edit that shifts every later number is still a one-hunk diff.
 * A block with a `DECISION:` line is never referenced and never referenced to. Everything stays
 * reversible: the original of every reference and delta is put in the RestoreStore under its handle.
 */
export class Session {
  private readonly sent: Remembered[] = [];
  private readonly byDigest = new Map<string, number>();
  private readonly reReads = new ReReadIndex();
  private readonly sticky = new Set<Handle>();
  private turns = 0;
  /** Tokens of the context as the agent produced it, counted only until it reaches minCacheableTokens. */
  private contextTokens = 0;
  /** contextTokens after each block, so a prefix of this history resumes with its own count. */
  private readonly countedTokens: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SessionOptions) {}

  /** The context sent so far, in order. */
  get context(): readonly SentBlock[] {
    return this.sent.map((r) => r.sent);
  }

  /** This session's history, for `Session.resume`. */
  history(): SessionHistory {
    return {
      context: this.context,
      sticky: [...this.sticky],
      turns: this.turns,
      countedTokens: this.countedTokens.slice(),
      addresses: this.sent.map((r) => r.address),
    };
  }

  /**
   * A session that continues the first `length` blocks of `history` (all of them by default) exactly as
   * the session that sent them would: the same bytes for every block, and the next turn encoded the same
   * way (the same back-references, deltas and sticky expansions). Nothing is compressed again; the cost
   * is one pass over the texts to rebuild the re-read index. Every handle the history expanded stays
   * sticky, as it would in the session that sent it: later turns never fold it again.
   */
  static resume(options: SessionOptions, history: SessionHistory, length = history.context.length): Session {
    const session = new Session(options);
    for (let i = 0; i < length; i++) {
      session.contextTokens = history.countedTokens[i] ?? 0;
      const sent = history.context[i]!;
      session.remember(sent, session.seen(sent.block.text, history.addresses?.[i]));
    }
    for (const handle of history.sticky) session.sticky.add(handle);
    const last = history.context[length - 1];
    session.turns = length === history.context.length ? history.turns : last ? last.turn + 1 : 0;
    return session;
  }

  /**
   * Marks a handle as expanded by the agent (sticky expansion): content behind it is sent in full from
   * now on, never folded or referenced to a folded form again.
   */
  markExpanded(handle: Handle): void {
    this.sticky.add(handle);
  }

  /** Whether a handle was expanded in this session. */
  isSticky(handle: Handle): boolean {
    return this.sticky.has(handle);
  }

  /** Adds the blocks of the next turn and returns what to send. Calls are serialised in call order. */
  addTurn(blocks: readonly Block[]): Promise<SessionTurn> {
    const result = this.queue.then(() => this.encodeTurn(blocks));
    // settled to nothing either way: a queue that resolved to the turn would hold its texts until the next
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async encodeTurn(blocks: readonly Block[]): Promise<SessionTurn> {
    const turn = this.turns++;
    const added: SentBlock[] = [];
    for (const block of blocks) added.push(await this.encodeBlock(block, turn));
    return { turn, added, context: this.context };
  }

  /** Files a sent block where later blocks look for earlier ones (exact re-sends, re-reads). */
  private remember(sent: SentBlock, seen = this.seen(sent.block.text)): void {
    const { view, digest, inert, address } = seen;
    this.sent.push({ sent, inert, view, address });
    this.countedTokens.push(this.contextTokens);
    if (inert && !this.byDigest.has(digest)) this.byDigest.set(digest, sent.position);
    if (inert && sent.block.text.length >= this.minReferenceChars)
      this.reReads.add(sent.position, view.plain);
  }

  /** What the session compares of a text: its view (its lines indexed for re-reads), the digest re-sends are matched on. */
  private seen(text: string, address: ContentAddress = addressOf(text)) {
    const view = new ReadView(text);
    // exact re-sends are matched on the tool's output: Codex's header differs on every run
    const digest = view.wrapped ? addressOf(view.body).digest : address.digest;
    const inert = !text.includes(DECISION_MARKER);
    return { handle: address.handle, address, view, digest, inert };
  }

  private async encodeBlock(block: Block, turn: number): Promise<SentBlock> {
    const position = this.sent.length;
    const text = block.text;
    const seen = this.seen(text);
    const { handle, view, digest, inert } = seen;
    const record = (
      encoding: SentEncoding,
      out: string,
      handles: readonly Handle[],
      refersTo?: number,
    ): SentBlock => {
      const sent: SentBlock = {
        block,
        text: out,
        encoding,
        handles,
        original: handle,
        position,
        turn,
        ...(refersTo !== undefined ? { refersTo } : {}),
      };
      this.remember(sent, seen);
      return sent;
    };

    if (this.sticky.has(handle)) return record('full', text, []);
    const minCacheable = this.options.minCacheableTokens ?? 0;
    if (this.contextTokens < minCacheable) {
      // The block that lifts the context over the minimum goes out whole too, or compressing it could
      // drop the prompt back under the minimum for several more turns.
      this.contextTokens += countTokens(text);
      return record('full', text, []);
    }
    if (this.options.sendWhole?.(block)) return record('full', text, []);
    const referable = inert && text.length >= this.minReferenceChars;

    if (referable && this.options.dedup !== false) {
      const earlier = this.byDigest.get(digest);
      if (earlier !== undefined && !this.showsStickyFolded(earlier)) {
        await this.keep(text);
        const reference = exactReference(this.at(earlier), view.body.split('\n').length, handle);
        return record('reference', view.wrapLine(reference), [handle], earlier);
      }
      const range = view.numbers === null ? null : this.shownRange(view);
      if (range) {
        await this.keep(text);
        const reference = rangeReference(this.at(range.entry), range.first, range.last, handle);
        return record('reference', view.wrapLine(reference), [handle], range.entry);
      }
    }

    if (referable && this.options.cacheDelta !== false) {
      const match = this.reReads.best(view.plain, this.options.minShare ?? 0.5);
      const earlier = match ? this.sent[match.entry] : undefined;
      // a diff's line numbers mean the same in both versions only when both start at the same line
      const aligned = earlier?.view.firstNumber === view.firstNumber;
      if (match && earlier?.inert && aligned && !this.showsStickyFolded(match.entry)) {
        const delta = await this.delta(earlier, view, view.lineCount, handle, match.share);
        if (delta && delta.text.length <= this.maxDeltaRatio * text.length) {
          await this.keep(text);
          return record(delta.encoding, view.wrap(delta.text), [handle], match.entry);
        }
      }
    }

    const skeleton = this.options.skeleton ?? true;
    if (skeleton !== false && block.kind === 'source') {
      const digested = await skeletonDigest(text, this.options.store, {
        ...(typeof skeleton === 'object' ? skeleton : {}),
        keepFull: (h) => this.sticky.has(h),
      });
      if (digested && digested.text.length < text.length)
        return record('skeleton', digested.text, digested.handles);
    }

    const compressed = await this.options.compress(block);
    if (compressed.tier === 'none' || compressed.handles.some((h) => this.sticky.has(h))) {
      return record('full', text, []);
    }
    // A lossless re-encoding has no stubs to expand; its original is kept so restoring stays exact.
    if (compressed.tier === 'lossless') await this.keep(text);
    return record('compressed', compressed.text, compressed.handles);
  }

  /**
   * The cheapest delta of a new tool output against an earlier version: a unified diff, or for Python
   * and TypeScript/JavaScript the top-level definitions that changed. Both are computed on the outputs
   * without line numbers; a numbered read's hunks then name the file's line numbers, and the changed
   * definitions are printed as numbered lines. The parse costs milliseconds and a small diff is already
   * near the floor, so the structural comparison runs only when the diff is large (or too large to
   * compute): a reformat, a moved or rewritten definition.
   */
  private async delta(
    earlier: Remembered,
    view: ReadView,
    lineCount: number,
    handle: Handle,
    share: number,
  ): Promise<{ encoding: SentEncoding; text: string } | null> {
    const where = this.at(earlier.sent.position);
    const maxEditLines = Math.ceil(MAX_EDITED_SHARE * lineCount);
    const before = earlier.view.plain;
    const after = view.plain;
    // Versions that share almost every line diff quickly; the linear pre-check is for doubtful pairs.
    const patch = textDelta(before, after, maxEditLines, share < 0.9);
    const numbered = view.numbers !== null;
    const diff =
      patch === null
        ? null
        : {
            encoding: 'diff' as const,
            text: diffReference(where, handle, shiftHunks(patch, view.firstNumber - 1), numbered),
          };
    if (this.options.astDelta === false || (diff && diff.text.length <= AST_WORTHWHILE_CHARS)) return diff;
    const language = detectSourceLanguage(after);
    if (!language) return diff;
    const comparison = await compareSource(language, before, after);
    if (comparison.type === 'unparsed') return diff;
    if (comparison.type === 'unchanged') {
      return {
        encoding: 'ast-unchanged',
        text: astUnchangedReference(where, comparison.definitions, handle),
      };
    }
    // definitions are found in the text without numbers and printed from the numbered one
    const changed = comparison.changed.map((d) => ({
      ...d,
      start: view.toBody(d.start),
      end: view.toBody(d.end),
    }));
    const structural = astDeltaReference(
      where,
      handle,
      view.body,
      comparison.definitions,
      changed,
      comparison.removed,
    );
    return !diff || structural.length < diff.text.length ? { encoding: 'ast-delta', text: structural } : diff;
  }

  /**
   * An earlier read that showed every line of a partial re-read (Read's offset/limit) as it is now: the
   * same numbers with the same text, each of them verbatim in what that block sent (a line folded
   * there never reached the model, so a re-read of it is sent, not referenced). Most recent first.
   */
  private shownRange(view: ReadView): { entry: number; first: number; last: number } | null {
    const numbers = view.numbers!;
    const first = numbers.first;
    const last = first + numbers.count - 1;
    const wanted = view.body.split('\n', numbers.count);
    for (let e = this.sent.length - 1; e >= 0; e--) {
      const earlier = this.sent[e]!;
      const theirs = earlier.view.numbers;
      if (!earlier.inert || theirs === null || theirs.first > first) continue;
      if (theirs.first + theirs.count - 1 < last || theirs.width !== numbers.width) continue;
      if (theirs.separator !== numbers.separator || this.showsStickyFolded(e)) continue;
      const lines = earlier.view.body.split('\n', theirs.count);
      const offset = first - theirs.first;
      if (!wanted.every((line, i) => lines[offset + i] === line)) continue;
      if (earlier.sent.encoding !== 'full') {
        const shown = new Set(earlier.sent.text.split('\n'));
        if (!wanted.every((line) => shown.has(line))) continue;
      }
      return { entry: e, first, last };
    }
    return null;
  }

  /** Whether the block at `position` went out folded behind a handle the agent has since expanded. */
  private showsStickyFolded(position: number): boolean {
    return this.sent[position]?.sent.handles.some((h) => this.sticky.has(h)) ?? false;
  }

  private at(position: number): EarlierBlock {
    const sent = this.sent[position]!.sent;
    return { position: sent.position, turn: sent.turn };
  }

  /** Stores an original whose handle a reference or delta prints, so an expand returns it byte-exact. */
  private async keep(text: string): Promise<void> {
    await this.options.store.put(new TextEncoder().encode(text));
  }

  private get maxDeltaRatio(): number {
    return this.options.maxDeltaRatio ?? 0.5;
  }

  private get minReferenceChars(): number {
    return this.options.minReferenceChars ?? 200;
  }
}
