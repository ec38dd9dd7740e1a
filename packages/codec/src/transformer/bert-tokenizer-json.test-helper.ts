/**
 * tokenizer.json files for test models: the Hugging Face layout of a BERT-uncased WordPiece tokenizer
 * (BertNormalizer, BertPreTokenizer, WordPiece, a [CLS] … [SEP] template) over any vocabulary.
 */

/** A BERT-uncased style tokenizer.json over `vocab` (index = id); the first five entries are the specials. */
export function bertTokenizerJson(vocab: readonly string[]): Record<string, unknown> {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (t: string) => ({
    id: ids[t],
    content: t,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
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
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

/** The test vocabulary: specials, some whole words, then every letter, digit and ASCII punctuation mark. */
export function tinyVocab(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
  const punctuation = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).filter(
    (c) => !/[a-z0-9A-Z]/.test(c),
  );
  const words = [
    'error',
    'failed',
    'test',
    'tests',
    'passed',
    'the',
    'at',
    'disk',
    'build',
    'debug',
    'not',
    'found',
    'exit',
    'code',
    'decision',
  ];
  const suffixes = ['##s', '##ed', '##ing', '##er'];
  return [
    '[PAD]',
    '[UNK]',
    '[CLS]',
    '[SEP]',
    '[MASK]',
    ...words,
    ...suffixes,
    ...letters,
    ...letters.map((c) => `##${c}`),
    ...punctuation,
  ];
}
