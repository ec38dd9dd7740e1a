import type { Vocabulary } from './vocabulary.js';

/** Longest word WordPiece will split; a longer one becomes [UNK] (the BERT and HF tokenizers default). */
export const MAX_INPUT_CHARS_PER_WORD = 100;

const CONTROL = /\p{C}/u;
const WHITESPACE = /\s/u;
const UNICODE_PUNCTUATION = /\p{P}/u;
const NONSPACING_MARK = /\p{Mn}/gu;

/** CJK ideograph blocks that BERT isolates as single-character words (BertNormalizer's list). */
function isChineseChar(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) ||
    (code >= 0x2b740 && code <= 0x2b81f) ||
    (code >= 0x2b920 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/** ASCII punctuation as Rust's `is_ascii_punctuation` defines it, which also covers `$+<=>^\`|~`. */
function isPunctuation(ch: string): boolean {
  const code = ch.codePointAt(0) as number;
  if ((code >= 33 && code <= 47) || (code >= 58 && code <= 64)) return true;
  if ((code >= 91 && code <= 96) || (code >= 123 && code <= 126)) return true;
  return UNICODE_PUNCTUATION.test(ch);
}

/**
 * BertNormalizer with clean_text, handle_chinese_chars, lowercase and (as lowercase implies) accent
 * stripping, in the order the HF `tokenizers` library applies them, so ids match what a loader of our
 * `tokenizer.json` produces.
 */
export function normalizeForBert(text: string): string {
  let cleaned = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\t' || ch === '\n' || ch === '\r') cleaned += ' ';
    else if (code === 0 || code === 0xfffd || CONTROL.test(ch)) continue;
    else if (WHITESPACE.test(ch)) cleaned += ' ';
    else if (isChineseChar(code)) cleaned += ` ${ch} `;
    else cleaned += ch;
  }
  return cleaned.normalize('NFD').replace(NONSPACING_MARK, '').toLowerCase();
}

/** BertPreTokenizer: split on whitespace, and isolate every punctuation character as its own word. */
export function preTokenizeForBert(normalized: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const ch of normalized) {
    if (WHITESPACE.test(ch)) {
      if (current) words.push(current);
      current = '';
    } else if (isPunctuation(ch)) {
      if (current) words.push(current);
      words.push(ch);
      current = '';
    } else current += ch;
  }
  if (current) words.push(current);
  return words;
}

/**
 * WordPiece over a BERT vocabulary: greedy longest-match-first, continuation pieces prefixed `##`, a word
 * that cannot be covered (or is longer than 100 characters) becomes one [UNK]. Schuster & Nakajima 2012;
 * the matching rule is the one in Google's BERT `tokenization.py`.
 */
export class WordPieceTokenizer {
  readonly #cache = new Map<string, readonly number[]>();

  constructor(readonly vocabulary: Vocabulary) {}

  /** Piece ids of one word (no specials). */
  wordIds(word: string): readonly number[] {
    const cached = this.#cache.get(word);
    if (cached) return cached;
    const ids = this.#split(word);
    if (this.#cache.size < 200_000) this.#cache.set(word, ids);
    return ids;
  }

  #split(word: string): number[] {
    const chars = Array.from(word);
    if (chars.length > MAX_INPUT_CHARS_PER_WORD) return [this.vocabulary.unkId];
    const ids: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        found = this.vocabulary.idOf(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.vocabulary.unkId];
      ids.push(found);
      start = end;
    }
    return ids;
  }

  /** Piece ids of a text, without [CLS]/[SEP]. */
  pieceIds(text: string): number[] {
    const out: number[] = [];
    for (const word of preTokenizeForBert(normalizeForBert(text))) out.push(...this.wordIds(word));
    return out;
  }

  /**
   * `[CLS] pieces [SEP]`, truncated so the whole sequence has at most `maxLength` ids (the HF
   * TemplateProcessing + right truncation that `tokenizer.json` declares).
   */
  encode(text: string, maxLength: number): Int32Array {
    const pieces = this.pieceIds(text);
    const kept = Math.max(0, Math.min(pieces.length, maxLength - 2));
    const ids = new Int32Array(kept + 2);
    ids[0] = this.vocabulary.clsId;
    for (let i = 0; i < kept; i++) ids[i + 1] = pieces[i] as number;
    ids[kept + 1] = this.vocabulary.sepId;
    return ids;
  }
}
