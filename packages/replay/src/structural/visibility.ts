import type { Block } from '@distil/contract';

/** Characters that continue an identifier: a token found next to one of them is part of a longer one. */
const CONTINUES = /[A-Za-z0-9_-]/;
const DIGIT = /[0-9]/;
const WORD_RUN = /[A-Za-z0-9_]+/g;

const continues = (ch: string | undefined): boolean => ch !== undefined && CONTINUES.test(ch);
const isDigit = (ch: string | undefined): boolean => ch !== undefined && DIGIT.test(ch);

/**
 * Whether `token` is visible in `text` as a whole token: an occurrence counts only when it is not the
 * middle of a longer identifier or number. So `pg-ledger-0` is visible in `pod pg-ledger-0 restarted` and
 * in `pg-ledger-0.pg-ledger.svc`, but not in `pg-ledger-01`; `12` is not visible in `120` or `3.12`, and
 * a path is visible inside a longer path it begins (`/var/lib` in `/var/lib/pg`), since a model can copy a
 * prefix of what it reads.
 */
export function visibleIn(text: string, token: string): boolean {
  if (token.length === 0) return false;
  const first = token[0];
  const last = token[token.length - 1];
  const guardLeft = continues(first);
  const guardRight = continues(last);
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
    const end = at + token.length;
    const before = text[at - 1];
    const after = text[end];
    const leftOk =
      !guardLeft || (!continues(before) && !(isDigit(first) && before === '.' && isDigit(text[at - 2])));
    const rightOk =
      !guardRight || (!continues(after) && !(isDigit(last) && after === '.' && isDigit(text[end + 1])));
    if (leftOk && rightOk) return true;
  }
  return false;
}

/** The longest run of word characters in a token: the most selective key for a word-set prefilter. */
function longestWord(token: string): string | null {
  let best: string | null = null;
  for (const match of token.matchAll(WORD_RUN)) {
    if (best === null || match[0].length > best.length) best = match[0];
  }
  return best;
}

interface BlockEntry {
  /** Every run of word characters in the block: a token whose longest run is absent cannot be visible. */
  readonly words: Set<string>;
  readonly seen: Map<string, boolean>;
}

/**
 * Memoised visibility of tokens in blocks. Replays ask the same question of the same block many times (a
 * block sits in every later turn's context, and ablation replays each turn once per block), so each
 * block's word set is built once and every (block, token) answer is kept. Keyed by block object: callers
 * that build contexts reuse block objects (the ablation and fallback here do).
 */
export class VisibilityIndex {
  private readonly entries = new WeakMap<Block, BlockEntry>();

  /** Whether `token` is visible in `block` (see visibleIn). */
  visible(block: Block, token: string): boolean {
    let entry = this.entries.get(block);
    if (entry === undefined) {
      entry = { words: new Set(block.text.match(WORD_RUN) ?? []), seen: new Map() };
      this.entries.set(block, entry);
    }
    const known = entry.seen.get(token);
    if (known !== undefined) return known;
    const key = longestWord(token);
    const found = (key === null || entry.words.has(key)) && visibleIn(block.text, token);
    entry.seen.set(token, found);
    return found;
  }

  /** Whether `token` is visible in any block of `context`. */
  visibleInContext(context: readonly Block[], token: string): boolean {
    for (const block of context) if (this.visible(block, token)) return true;
    return false;
  }
}
