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
// with rememberSavedTokens instead). A count a compress worker is still making is its promise (null
// when the worker could not say: then this thread counts).
const counted = new WeakMap<Block, BlockTokens | Promise<BlockTokens | null>>();

/**
 * Keeps the counts a compress worker made for a block, or will make: a worker answers the compressed
 * block first and counts after, while the request is upstream (the counts are only read for the reply).
 */
export function rememberBlockTokens(block: Block, tokens: BlockTokens | Promise<BlockTokens | null>): void {
  counted.set(block, tokens);
}

/** savedBlockTokens from counts already made: `original` the block's, `sent` the sent text's if known. */
function savedFrom(block: Block, sentText: string, known: BlockTokens | null | undefined): number {
  const original = known?.original ?? countTokens(block.text);
  const sent = known != null && known.compressedText === sentText ? known.compressed : countTokens(sentText);
  return Math.max(0, original - sent);
}

/**
 * Tokens (o200k) sending `sentText` for `block` removes: the block's count minus the sent text's. A
 * 200 KB tool output takes the tokenizer several milliseconds, so counts a worker made are used as they
 * are (waited for while it makes them), and a block sent as it was costs no count at all.
 */
export function savedBlockTokens(block: Block, sentText: string): number | Promise<number> {
  if (sentText === block.text) return 0;
  const known = counted.get(block);
  if (known instanceof Promise) return known.then((tokens) => savedFrom(block, sentText, tokens));
  return savedFrom(block, sentText, known);
}

// Tokens saved per sent block, counted once: a block's bytes never change, so neither does its saving.
const savedOf = new WeakMap<SentBlock, number | Promise<number>>();

/** savedBlockTokens of a sent block, counted once per SentBlock. */
export function savedTokens(sent: SentBlock): number | Promise<number> {
  let saved = savedOf.get(sent);
  if (saved === undefined) {
    saved = savedBlockTokens(sent.block, sent.text);
    savedOf.set(sent, saved);
    if (saved instanceof Promise) void saved.then((count) => savedOf.set(sent, count));
  }
  return saved;
}

/**
 * savedTokens now: a count a worker is still making is made here instead (a branch going to sleep
 * keeps the number, and nothing of the block's text).
 */
export function savedTokensNow(sent: SentBlock): number {
  const saved = savedTokens(sent);
  if (typeof saved === 'number') return saved;
  const count = savedFrom(sent.block, sent.text, undefined);
  savedOf.set(sent, count);
  return count;
}

/** Carries a count over to a SentBlock rebuilt for the same block (a session branch that woke up). */
export function rememberSavedTokens(sent: SentBlock, saved: number): void {
  savedOf.set(sent, saved);
}
