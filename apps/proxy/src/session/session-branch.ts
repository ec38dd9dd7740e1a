import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { addressOf, type Block, type ContentAddress, type Handle } from '@distil/contract';
import { type SentBlock, Session, type SessionHistory, type SessionOptions } from '@distil/core';
import { rememberSavedTokens, savedTokensNow } from '../pool/block-tokens.js';

/** A sent block while its branch sleeps: all of it but the two texts, and the original's digest. */
interface SleepingBlock {
  readonly sent: Omit<SentBlock, 'block' | 'text'>;
  readonly block: Omit<Block, 'text'>;
  /**
   * The original text's content address: a resent text takes the block's place only if its sha256 is
   * this digest, and the woken session takes the address as it is rather than hashing the text again.
   */
  readonly address: ContentAddress;
  /** Tokens the sent text saved (counted once; a woken block does not count them again). */
  readonly saved: number;
}

/** A sleeping branch: its history without the original texts, the sent ones deflated. */
interface Sleeping {
  readonly blocks: readonly SleepingBlock[];
  /**
   * The sent texts, joined and deflated: what a sleeping branch holds most of otherwise (a 200 KB
   * conversation was sent as ~60 KB of folded logs, which deflate to ~9 KB in ~0.2 ms).
   */
  readonly sentTexts: Buffer;
  /** UTF-8 unless a text holds a lone surrogate, which only UTF-16 carries through unchanged. */
  readonly sentEncoding: 'utf8' | 'utf16le';
  readonly sentLengths: readonly number[];
  readonly sticky: Handle[];
  readonly turns: number;
  readonly countedTokens: readonly number[];
}

/**
 * One linear history of a session: a core Session, awake or asleep. An agent resends its whole history
 * with every request, so between requests the original texts are only needed to compare the next
 * request with: a sleeping branch drops them (most of a session's memory — they are what the agent
 * produced, the sent texts are the compressed ones) and keeps their sha256 digests instead. The next
 * request that resends them byte for byte wakes it: the session is rebuilt from the texts it carries and
 * the bytes already sent, with nothing compressed again (Session.resume).
 */
export class SessionBranch {
  lastUsed = Date.now();
  #session: Session | null;
  #sleeping: Sleeping | null = null;
  // Cleared once a request continued the branch without resending it (a Responses chain by
  // `previous_response_id`): its texts would never come back to wake it, so it stays awake.
  #resent = true;

  constructor(
    readonly options: SessionOptions,
    session: Session = new Session(options),
  ) {
    this.#session = session;
  }

  /** Blocks sent so far. */
  get length(): number {
    return this.#session ? this.#session.context.length : this.#sleeping!.blocks.length;
  }

  /** Whether the branch holds its original texts (see sleep). */
  get awake(): boolean {
    return this.#session !== null;
  }

  /** Every block sent so far, in order (the branch must be awake). */
  get context(): readonly SentBlock[] {
    return this.#awake().context;
  }

  /** Adds one turn of new blocks (none: nothing happens). `resent`: false for a chained request. */
  async add(blocks: readonly Block[], resent = true): Promise<void> {
    if (!resent) this.#resent = false;
    if (blocks.length === 0) return;
    await this.#awake().addTurn(blocks);
  }

  /** Marks a handle expanded from the next turn on (sticky expansion). */
  markExpanded(handle: Handle): void {
    if (this.#session) this.#session.markExpanded(handle);
    else if (!this.#sleeping!.sticky.includes(handle)) this.#sleeping!.sticky.push(handle);
  }

  /**
   * How many leading original texts equal the given ones. Asleep, texts are compared by digest:
   * `digestOf(i)` is the sha256 of `texts[i]` (hex), computed by the caller once per request.
   */
  matchLength(texts: readonly string[], digestOf: (index: number) => string): number {
    const limit = Math.min(this.length, texts.length);
    let i = 0;
    if (this.#session) {
      const context = this.#session.context;
      while (i < limit && context[i]!.block.text === texts[i]) i++;
    } else {
      const blocks = this.#sleeping!.blocks;
      while (i < limit && blocks[i]!.address.digest === digestOf(i)) i++;
    }
    return i;
  }

  /**
   * A new branch holding this one's first `length` blocks, with the bytes they were sent with and every
   * expansion still sticky: the texts equal the ones already sent, which is what keeps the provider's
   * cached prefix valid when a client rewinds or edits its history. `texts` are the request's, equal to
   * this branch's first `length` (matchLength), for a branch that sleeps.
   */
  fork(length: number, texts: readonly string[]): SessionBranch {
    return new SessionBranch(
      this.options,
      Session.resume(this.options, this.#history(texts, length), length),
    );
  }

  /**
   * Drops the original texts, keeping their digests (a branch a chained request continued stays
   * awake). Asleep, the branch answers matchLength; anything else wakes it first.
   */
  sleep(): void {
    const session = this.#session;
    if (!session || !this.#resent) return;
    const history = session.history();
    const sentTexts = history.context.map((sent) => sent.text);
    const joined = sentTexts.join('');
    const sentEncoding = joined.isWellFormed() ? 'utf8' : 'utf16le';
    this.#sleeping = {
      blocks: history.context.map(({ block: { text, ...block }, text: _sent, ...sent }, i) => ({
        sent,
        block,
        // the session's own, from when it first met the text (hashed again only for a history without)
        address: history.addresses?.[i] ?? addressOf(text),
        saved: savedTokensNow(history.context[i]!),
      })),
      // copied out of zlib's 16 KB output chunk, which would otherwise be held whole
      sentTexts: Buffer.from(deflateRawSync(Buffer.from(joined, sentEncoding), { level: 1 })),
      sentEncoding,
      sentLengths: sentTexts.map((text) => text.length),
      sticky: [...history.sticky],
      turns: history.turns,
      countedTokens: history.countedTokens,
    };
    this.#session = null;
  }

  /** Rebuilds a sleeping branch from a request's texts, the first `length` of which matched its digests. */
  wake(texts: readonly string[]): void {
    if (this.#session) return;
    if (texts.length < this.length) throw new Error('a sleeping branch wakes only with all of its texts');
    this.#session = Session.resume(this.options, this.#history(texts, this.length));
    this.#sleeping = null;
  }

  /**
   * The branch's history; asleep, with the original texts taken from `texts`, the first `matched` of
   * which matched its digests (their addresses are then known).
   */
  #history(texts: readonly string[], matched: number): SessionHistory {
    if (this.#session) return this.#session.history();
    const sleeping = this.#sleeping!;
    const length = Math.min(texts.length, sleeping.blocks.length);
    const joined = inflateRawSync(sleeping.sentTexts).toString(sleeping.sentEncoding);
    const context: SentBlock[] = [];
    let at = 0;
    for (let i = 0; i < length; i++) {
      const { sent, block, saved } = sleeping.blocks[i]!;
      const text = joined.slice(at, at + sleeping.sentLengths[i]!);
      at += text.length;
      const woken: SentBlock = { ...sent, text, block: { ...block, text: texts[i]! } };
      rememberSavedTokens(woken, saved);
      context.push(woken);
    }
    return {
      context,
      sticky: sleeping.sticky,
      turns: length === sleeping.blocks.length ? sleeping.turns : (context.at(-1)?.turn ?? -1) + 1,
      countedTokens: sleeping.countedTokens.slice(0, length),
      addresses: sleeping.blocks.slice(0, Math.min(length, matched)).map((block) => block.address),
    };
  }

  #awake(): Session {
    if (!this.#session) throw new Error('session branch is asleep: wake it with the request’s texts');
    return this.#session;
  }
}
