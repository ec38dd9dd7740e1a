import { z } from 'zod';

/**
 * The parts of a Hugging Face `tokenizer.json` a BERT WordPiece tokenizer is made of, validated at the
 * edge, and its post-processor compiled to the ids that go around every line.
 */

const AddedTokenJson = z
  .object({
    id: z.number().int().nonnegative(),
    content: z.string().min(1),
    normalized: z.boolean().default(false),
  })
  .loose();

export const BertNormalizerJson = z
  .object({
    type: z.literal('BertNormalizer'),
    clean_text: z.boolean().default(true),
    handle_chinese_chars: z.boolean().default(true),
    strip_accents: z.boolean().nullable().default(null),
    lowercase: z.boolean().default(true),
  })
  .loose();
export type BertNormalizerJson = z.infer<typeof BertNormalizerJson>;

const SpecialPiece = z.object({ SpecialToken: z.object({ id: z.string(), type_id: z.number().int() }) });
const SequencePiece = z.object({ Sequence: z.object({ id: z.enum(['A', 'B']), type_id: z.number().int() }) });

const PostProcessorJson = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('TemplateProcessing'),
      single: z.array(z.union([SpecialPiece, SequencePiece])),
      special_tokens: z.record(z.string(), z.object({ ids: z.array(z.number().int()) }).loose()),
    })
    .loose(),
  z
    .object({
      type: z.literal('BertProcessing'),
      cls: z.tuple([z.string(), z.number().int()]),
      sep: z.tuple([z.string(), z.number().int()]),
    })
    .loose(),
]);

/** The parts of a `tokenizer.json` a BERT WordPiece tokenizer needs; other fields are allowed and ignored. */
export const WordPieceTokenizerJson = z
  .object({
    added_tokens: z.array(AddedTokenJson).default([]),
    normalizer: BertNormalizerJson.nullable(),
    pre_tokenizer: z
      .object({ type: z.literal('BertPreTokenizer', 'expected "BertPreTokenizer" (a BERT tokenizer)') })
      .loose(),
    post_processor: PostProcessorJson.nullable().default(null),
    model: z
      .object({
        type: z.literal('WordPiece', 'expected "WordPiece" (a BERT tokenizer)'),
        unk_token: z.string().min(1),
        continuing_subword_prefix: z.string().default('##'),
        max_input_chars_per_word: z.number().int().positive().default(100),
        vocab: z.record(z.string(), z.number().int().nonnegative()),
      })
      .loose(),
  })
  .loose();
export type WordPieceTokenizerJson = z.infer<typeof WordPieceTokenizerJson>;

/** The specials around a single sequence, as ids and token-type ids. */
export interface Template {
  prefix: number[];
  prefixTypes: number[];
  suffix: number[];
  suffixTypes: number[];
  sequenceType: number;
}

/** The single-sequence template as ids before and after the line; a template of another shape is refused. */
export function compileTemplate(post: WordPieceTokenizerJson['post_processor']): Template {
  const t: Template = { prefix: [], prefixTypes: [], suffix: [], suffixTypes: [], sequenceType: 0 };
  if (post === null) return t;
  if (post.type === 'BertProcessing') {
    return {
      prefix: [post.cls[1]],
      prefixTypes: [0],
      suffix: [post.sep[1]],
      suffixTypes: [0],
      sequenceType: 0,
    };
  }
  let seenSequence = false;
  for (const piece of post.single) {
    if ('Sequence' in piece) {
      if (seenSequence || piece.Sequence.id !== 'A') {
        throw new Error('post_processor.single: expected exactly one sequence "A"');
      }
      seenSequence = true;
      t.sequenceType = piece.Sequence.type_id;
      continue;
    }
    const special = post.special_tokens[piece.SpecialToken.id];
    if (special === undefined) {
      throw new Error(`post_processor.special_tokens: missing "${piece.SpecialToken.id}"`);
    }
    for (const id of special.ids) {
      (seenSequence ? t.suffix : t.prefix).push(id);
      (seenSequence ? t.suffixTypes : t.prefixTypes).push(piece.SpecialToken.type_id);
    }
  }
  if (!seenSequence) throw new Error('post_processor.single: expected a sequence "A"');
  return t;
}
