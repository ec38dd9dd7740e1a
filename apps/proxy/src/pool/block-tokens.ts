import type { Block } from '@distil/contract';
import { countTokens, type SentBlock } from '@distil/core';

/** A block's o200k token count and its compressed text's, counted where it was compressed. */
export interface BlockTokens {
  readonly original: number;
  readonly compressedText: string;
  readonly compressed: number;
}

// By Block object: a block's text never changes, and an awake session hands the same object back in
// every SentBlock made from it (a woken or forked branch makes new ones, and carries their savings over
// with rememberSavedTokens instead).
const counted = new WeakMap<Block, BlockTokens>();

/** Keeps the counts a compress worker made for a block, so this thread need not count them again. */
export function rememberBlockTokens(block: Block, tokens: BlockTokens): void {
  counted.set(block, tokens);
}

/**
 * Tokens (o200k) sending `sentText` for `block` removes: the block's count minus the sent text's. A
 * 200 KB tool output takes the tokenizer tens of milliseconds, so counts a worker made are used as they
 * are, and a block sent as it was costs no count at all.
 */
export function savedBlockTokens(block: Block, sentText: string): number {
  if (sentText === block.text) return 0;
  const known = counted.get(block);
  const original = known?.original ?? countTokens(block.text);
  const sent =
    known !== undefined && known.compressedText === sentText ? known.compressed : countTokens(sentText);
  return Math.max(0, original - sent);
}

// Tokens saved per sent block, counted once: a block's bytes never change, so neither does its saving.
const savedOf = new WeakMap<SentBlock, number>();

/** savedBlockTokens of a sent block, counted once per SentBlock. */
export function savedTokens(sent: SentBlock): number {
  let saved = savedOf.get(sent);
  if (saved === undefined) {
    saved = savedBlockTokens(sent.block, sent.text);
    savedOf.set(sent, saved);
  }
  return saved;
}

/** Carries a count over to a SentBlock rebuilt for the same block (a session branch that woke up). */
export function rememberSavedTokens(sent: SentBlock, saved: number): void {
  savedOf.set(sent, saved);
}
