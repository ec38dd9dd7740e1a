import type { Block, Handle } from '@distil/contract';
import { type SentBlock, Session, type SessionOptions } from '@distil/core';

/**
 * One linear history of a session: a core Session plus the record a fork needs to replay it exactly —
 * which expansions happened before which turn. Sticky expansion changes how later blocks are encoded, so
 * a faithful replay applies each expansion at the turn it happened.
 */
export class SessionBranch {
  readonly session: Session;
  lastUsed = Date.now();
  #turns = 0;
  readonly #expansions: { beforeTurn: number; handle: Handle }[] = [];

  constructor(readonly options: SessionOptions) {
    this.session = new Session(options);
  }

  /** Every block sent so far, in order. */
  get context(): readonly SentBlock[] {
    return this.session.context;
  }

  /** Adds one turn of new blocks (none: nothing happens). */
  async add(blocks: readonly Block[]): Promise<void> {
    if (blocks.length === 0) return;
    await this.session.addTurn(blocks);
    this.#turns += 1;
  }

  /** Marks a handle expanded from the next turn on (sticky expansion). */
  markExpanded(handle: Handle): void {
    if (this.session.isSticky(handle)) return;
    this.session.markExpanded(handle);
    this.#expansions.push({ beforeTurn: this.#turns, handle });
  }

  /** How many leading original texts equal the given ones. */
  matchLength(texts: readonly string[]): number {
    const context = this.context;
    const limit = Math.min(context.length, texts.length);
    let i = 0;
    while (i < limit && context[i]!.block.text === texts[i]) i++;
    return i;
  }

  /**
   * A new branch holding this one's first `length` blocks, replayed turn by turn with the same Block
   * objects (so cached compressions and per-block anchors are reused) and the expansions applied where
   * they happened: the replayed texts equal the ones already sent, which is what keeps the provider's
   * cached prefix valid when a client rewinds or edits its history.
   */
  async fork(length: number): Promise<SessionBranch> {
    const branch = new SessionBranch(this.options);
    const prefix = this.context.slice(0, length);
    let turn = 0;
    let start = 0;
    while (start < prefix.length) {
      const group: Block[] = [];
      const groupTurn = prefix[start]!.turn;
      while (start < prefix.length && prefix[start]!.turn === groupTurn) group.push(prefix[start++]!.block);
      for (const expansion of this.#expansions)
        if (expansion.beforeTurn === turn) branch.markExpanded(expansion.handle);
      await branch.add(group);
      turn += 1;
    }
    for (const expansion of this.#expansions)
      if (expansion.beforeTurn >= turn) branch.markExpanded(expansion.handle);
    return branch;
  }
}
