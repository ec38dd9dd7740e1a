import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPECIAL_TOKENS, type Vocabulary, vocabularyToText } from './vocabulary.js';
import { MAX_INPUT_CHARS_PER_WORD } from './wordpiece-tokenizer.js';

/**
 * The HF `tokenizers` JSON for our WordPiece tokenizer: BertNormalizer, BertPreTokenizer, WordPiece and a
 * `[CLS] A [SEP]` template, with right truncation at `maxLength` so any loader cuts lines where training
 * did. transformers.js and `@huggingface/tokenizers` read this file; a bare `vocab.txt` is not enough.
 */
export function tokenizerJson(vocabulary: Vocabulary, maxLength: number): Record<string, unknown> {
  const special = (token: string) => {
    const id = vocabulary.idOf(token);
    return id === undefined
      ? []
      : [
          {
            id,
            content: token,
            single_word: false,
            lstrip: false,
            rstrip: false,
            normalized: false,
            special: true,
          },
        ];
  };
  const vocab: Record<string, number> = {};
  vocabulary.tokens.forEach((token, id) => {
    vocab[token] = id;
  });
  const cls = { id: SPECIAL_TOKENS.cls, type_id: 0 };
  const sep = { id: SPECIAL_TOKENS.sep, type_id: 0 };
  return {
    version: '1.0',
    truncation: { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: Object.values(SPECIAL_TOKENS).flatMap(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: cls }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: sep }],
      pair: [
        { SpecialToken: cls },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: sep },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: SPECIAL_TOKENS.sep, type_id: 1 } },
      ],
      special_tokens: {
        [SPECIAL_TOKENS.cls]: {
          id: SPECIAL_TOKENS.cls,
          ids: [vocabulary.clsId],
          tokens: [SPECIAL_TOKENS.cls],
        },
        [SPECIAL_TOKENS.sep]: {
          id: SPECIAL_TOKENS.sep,
          ids: [vocabulary.sepId],
          tokens: [SPECIAL_TOKENS.sep],
        },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: SPECIAL_TOKENS.unk,
      continuing_subword_prefix: '##',
      max_input_chars_per_word: MAX_INPUT_CHARS_PER_WORD,
      vocab,
    },
  };
}

/** `tokenizer_config.json` as transformers (Python and JS) expect it for a BERT tokenizer. */
export function tokenizerConfigJson(maxLength: number): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    tokenize_chinese_chars: true,
    strip_accents: null,
    model_max_length: maxLength,
    clean_up_tokenization_spaces: true,
    pad_token: SPECIAL_TOKENS.pad,
    unk_token: SPECIAL_TOKENS.unk,
    cls_token: SPECIAL_TOKENS.cls,
    sep_token: SPECIAL_TOKENS.sep,
    mask_token: SPECIAL_TOKENS.mask,
  };
}

/**
 * Writes `tokenizer.json`, `tokenizer_config.json`, `special_tokens_map.json` and `vocab.txt` into
 * `folder` (the last two for Python's BertTokenizer, which reads `vocab.txt`).
 */
export function writeTokenizerFiles(folder: string, vocabulary: Vocabulary, maxLength: number): void {
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocabulary, maxLength)));
  writeFileSync(
    join(folder, 'tokenizer_config.json'),
    `${JSON.stringify(tokenizerConfigJson(maxLength), null, 2)}\n`,
  );
  const map = {
    pad_token: SPECIAL_TOKENS.pad,
    unk_token: SPECIAL_TOKENS.unk,
    cls_token: SPECIAL_TOKENS.cls,
    sep_token: SPECIAL_TOKENS.sep,
    mask_token: SPECIAL_TOKENS.mask,
  };
  writeFileSync(join(folder, 'special_tokens_map.json'), `${JSON.stringify(map, null, 2)}\n`);
  writeFileSync(join(folder, 'vocab.txt'), vocabularyToText(vocabulary));
}
