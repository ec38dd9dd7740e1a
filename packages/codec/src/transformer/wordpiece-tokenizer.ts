import { type BertNormalizerJson, compileTemplate, type WordPieceTokenizerJson } from './tokenizer-json.js';

/**
 * A BERT WordPiece encoder that reads a Hugging Face `tokenizer.json`.
 *
 * Why not @huggingface/tokenizers: measured here on CI and tool-output lines it encodes ~27k lines/s, which
 * alone would spend most of the transformer's time budget (the goal is ≥ 20k lines/s end to end). This
 * encoder produces the same ids (a property test checks it against @huggingface/tokenizers 0.2.0) at several
 * hundred thousand lines/s: an ASCII fast path that normalises, splits and looks words up in one pass, a
 * cache of words already split into pieces, and truncation that stops encoding once the sequence is full.
 *
 * The pipeline is the one BERT defines (Devlin et al. 2019, tokenization.py) as tokenizers.js implements it:
 * split on added tokens in the raw text; BertNormalizer (drop NUL, U+FFFD and control characters, map
 * whitespace to a space, pad CJK ideographs with spaces, lowercase, strip accents via NFD); BertPreTokenizer
 * (split on whitespace, every punctuation character a word of its own); WordPiece greedy longest-match-first
 * with `##` continuations, a word longer than `max_input_chars_per_word` becoming [UNK]; then the
 * TemplateProcessing (or BertProcessing) specials around the sequence.
 */

/** ASCII punctuation as BERT counts it (tokenization.py `_is_punctuation`), indexed by char code. */
const ASCII_PUNCT = new Uint8Array(128);
for (let c = 33; c < 127; c++) {
  if (c <= 47 || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || c >= 123) ASCII_PUNCT[c] = 1;
}
/** What one character does to the word being read, in the ASCII fast path. */
const WORD = 0;
const BREAK = 1;
const BREAK_PUNCT = 2;
const BREAK_ADDED = 3;
const DROP = 4;
const PUNCT_CLASS = String.raw`\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E`;
const PRE_TOKEN = new RegExp(`[^\\s${PUNCT_CLASS}]+|[${PUNCT_CLASS}]`, 'gu');
const CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;
const WHITESPACE = /\s/;
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{Mn}/gu;

/** CJK ideograph blocks BERT pads with spaces (tokenization.py `_is_chinese_char`). */
function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** Word-piece splits already computed; bounded so a stream of unique words cannot grow it without limit. */
const WORD_CACHE_LIMIT = 100_000;

/** Encodes single lines for a BERT token classifier. */
export class WordPieceTokenizer {
  /** Ids placed before the line's tokens ([CLS]) and their token-type ids. */
  readonly prefix: readonly number[];
  readonly prefixTypes: readonly number[];
  /** Ids placed after the line's tokens ([SEP]) and their token-type ids. */
  readonly suffix: readonly number[];
  readonly suffixTypes: readonly number[];
  /** Token-type id of the line's own tokens. */
  readonly sequenceType: number;
  readonly unkId: number;
  private readonly vocab: Map<string, number>;
  private readonly rawAdded: { content: string; id: number }[];
  private readonly rawAddedFirst: Set<number>;
  private readonly rawAddedFirstAscii = new Uint8Array(128);
  private readonly normalizedAdded: Map<string, number>;
  private readonly prefixPiece: string;
  private readonly maxWordChars: number;
  private readonly words = new Map<string, readonly number[]>();
  private readonly norm: BertNormalizerJson | null;

  constructor(json: WordPieceTokenizerJson) {
    const { model } = json;
    this.vocab = new Map(Object.entries(model.vocab));
    const unk = this.vocab.get(model.unk_token);
    if (unk === undefined) throw new Error(`model.unk_token "${model.unk_token}" is not in model.vocab`);
    this.unkId = unk;
    this.prefixPiece = model.continuing_subword_prefix;
    this.maxWordChars = model.max_input_chars_per_word;
    this.norm = json.normalizer;
    // Added tokens are matched in the raw text (normalized: false, as BERT's specials are) or after
    // normalisation; longest first, as a trie would.
    const added = [...json.added_tokens].sort((a, b) => b.content.length - a.content.length);
    this.rawAdded = added.filter((t) => !t.normalized || this.norm === null).map((t) => ({ ...t }));
    this.rawAddedFirst = new Set(this.rawAdded.map((t) => t.content.charCodeAt(0)));
    for (const c of this.rawAddedFirst) if (c < 128) this.rawAddedFirstAscii[c] = 1;
    this.normalizedAdded = new Map(
      added.filter((t) => t.normalized && this.norm !== null).map((t) => [t.content, t.id]),
    );
    for (const t of added) this.vocab.set(t.content, t.id);

    const template = compileTemplate(json.post_processor);
    this.prefix = template.prefix;
    this.prefixTypes = template.prefixTypes;
    this.suffix = template.suffix;
    this.suffixTypes = template.suffixTypes;
    this.sequenceType = template.sequenceType;
  }

  /** Number of special tokens around every line ([CLS] and [SEP] for BERT: 2). */
  get specialCount(): number {
    return this.prefix.length + this.suffix.length;
  }

  /**
   * Appends the ids of `line`'s own tokens (no specials) to `out`, stopping after `max` of them (the
   * truncation a `max_length` imposes, applied as the tokens are produced). Returns how many were added.
   */
  encodeContent(line: string, out: number[], max: number = Number.POSITIVE_INFINITY): number {
    const start = out.length;
    if (NON_ASCII.test(line)) this.encodeGeneral(line, out, start + max);
    else this.encodeAscii(line, out, start + max);
    if (out.length > start + max) out.length = start + max;
    return out.length - start;
  }

  /** The full id sequence of `line` with its specials, truncated so the whole is at most `maxTokens`. */
  encode(line: string, maxTokens: number = Number.POSITIVE_INFINITY): number[] {
    const out: number[] = [...this.prefix];
    this.encodeContent(line, out, Math.max(0, maxTokens - this.specialCount));
    out.push(...this.suffix);
    return out;
  }

  /** One pass over a pure-ASCII line: cleaning, lowercasing and splitting need no Unicode tables there. */
  private encodeAscii(line: string, out: number[], limit: number): void {
    const clean = this.norm?.clean_text ?? false;
    const lower = this.norm?.lowercase ?? false;
    const addedFirst = this.rawAddedFirstAscii;
    // The word being read: line[wordStart, i), or `dirty` when a dropped control character split it.
    let wordStart = -1;
    let dirty: string | null = null;
    for (let i = 0; i <= line.length && out.length < limit; i++) {
      const c = i < line.length ? line.charCodeAt(i) : 32;
      const added =
        addedFirst[c] === 1 ? this.rawAdded.find((t) => line.startsWith(t.content, i)) : undefined;
      let kind: number;
      if (added !== undefined) kind = BREAK_ADDED;
      else if (c === 32 || c === 9 || c === 10 || c === 13) kind = BREAK;
      else if (c < 32 || c === 127) {
        // Cleaning drops control characters (\v and \f included), joining their neighbours; without it
        // \v and \f are whitespace to the pre-tokenizer and the rest are ordinary characters.
        kind = clean ? DROP : c === 11 || c === 12 ? BREAK : WORD;
      } else kind = ASCII_PUNCT[c] === 1 ? BREAK_PUNCT : WORD;

      if (kind === WORD) {
        if (wordStart < 0) wordStart = i;
        else if (dirty !== null) dirty += line[i];
        continue;
      }
      if (kind === DROP) {
        if (wordStart >= 0 && dirty === null) dirty = line.slice(wordStart, i);
        continue;
      }
      if (wordStart >= 0) {
        const word = dirty ?? line.slice(wordStart, i);
        this.pushWord(lower ? word.toLowerCase() : word, out);
        wordStart = -1;
        dirty = null;
      }
      if (kind === BREAK_PUNCT) this.pushWord(line[i]!, out);
      else if (kind === BREAK_ADDED) {
        out.push(added!.id);
        i += added!.content.length - 1;
      }
    }
  }

  /** Any line: the BERT pipeline step by step, as tokenizers.js runs it. */
  private encodeGeneral(line: string, out: number[], limit: number): void {
    for (const section of this.splitRawAdded(line)) {
      if (out.length >= limit) return;
      if (typeof section === 'number') {
        out.push(section);
        continue;
      }
      const normalized = this.normalize(section);
      const parts = this.normalizedAdded.size > 0 ? splitOn(normalized, this.normalizedAdded) : [normalized];
      for (const part of parts) {
        if (typeof part === 'number') {
          out.push(part);
          continue;
        }
        for (const m of part.trim().matchAll(PRE_TOKEN)) {
          if (out.length >= limit) return;
          this.pushWord(m[0], out);
        }
      }
    }
  }

  private splitRawAdded(text: string): (string | number)[] {
    if (this.rawAdded.length === 0) return [text];
    const parts: (string | number)[] = [];
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      if (!this.rawAddedFirst.has(text.charCodeAt(i))) continue;
      const hit = this.rawAdded.find((t) => text.startsWith(t.content, i));
      if (hit === undefined) continue;
      if (i > from) parts.push(text.slice(from, i));
      parts.push(hit.id);
      i += hit.content.length - 1;
      from = i + 1;
    }
    if (from < text.length) parts.push(text.slice(from));
    return parts;
  }

  private normalize(text: string): string {
    const n = this.norm;
    if (n === null) return text;
    let s = text;
    if (n.clean_text) {
      let cleaned = '';
      for (const ch of s) {
        const cp = ch.charCodeAt(0);
        if (cp === 0 || cp === 0xfffd) continue;
        if (ch !== '\t' && ch !== '\n' && ch !== '\r' && CONTROL.test(ch)) continue;
        cleaned += WHITESPACE.test(ch) ? ' ' : ch;
      }
      s = cleaned;
    }
    if (n.handle_chinese_chars) {
      // UTF-16 units, not code points, as tokenizers.js does: astral ideographs are left as they are.
      let padded = '';
      for (let i = 0; i < s.length; i++) {
        const ch = s[i]!;
        padded += isChineseChar(s.charCodeAt(i)) ? ` ${ch} ` : ch;
      }
      s = padded;
    }
    if (n.lowercase) {
      s = s.toLowerCase();
      if (n.strip_accents !== false) s = s.normalize('NFD').replace(MARKS, '');
    } else if (n.strip_accents === true) {
      s = s.normalize('NFD').replace(MARKS, '');
    }
    return s;
  }

  /** Appends the word pieces of one pre-token (greedy longest match first; [UNK] when no split exists). */
  private pushWord(word: string, out: number[]): void {
    // A whole-word hit is what the greedy split would find first (a word over the length limit is [UNK]).
    const whole = word.length <= this.maxWordChars ? this.vocab.get(word) : undefined;
    if (whole !== undefined) {
      out.push(whole);
      return;
    }
    let pieces = this.words.get(word);
    if (pieces === undefined) {
      pieces = this.splitWord(word);
      if (this.words.size >= WORD_CACHE_LIMIT) this.words.clear();
      this.words.set(word, pieces);
    }
    for (const id of pieces) out.push(id);
  }

  private splitWord(word: string): readonly number[] {
    const chars = Array.from(word);
    if (chars.length > this.maxWordChars) return [this.unkId];
    const pieces: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const sub = chars.slice(start, end).join('');
        found = this.vocab.get(start > 0 ? this.prefixPiece + sub : sub);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unkId];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }
}

function splitOn(text: string, tokens: Map<string, number>): (string | number)[] {
  const parts: (string | number)[] = [];
  const sorted = [...tokens.keys()].sort((a, b) => b.length - a.length);
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const hit = sorted.find((t) => text.startsWith(t, i));
    if (hit === undefined) continue;
    if (i > from) parts.push(text.slice(from, i));
    parts.push(tokens.get(hit)!);
    i += hit.length - 1;
    from = i + 1;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}
