import { readFileSync } from 'node:fs';
import { parseOrThrow } from '@distil/contract';
import { z } from 'zod';

/** The shape of a BERT encoder with a token-classification head. */
export interface BertDims {
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly numHeads: number;
  readonly intermediateSize: number;
  readonly maxPositions: number;
  readonly typeVocabSize: number;
  readonly numLabels: number;
  readonly layerNormEps: number;
}

/** Label 1 is "keep" (what the codec's TransformerKeepModel reads); "O" is the usual outside label. */
export const ID2LABEL = Object.freeze({ 0: 'O', 1: 'KEEP' });

/**
 * The default size from scratch: 2 layers, hidden 64, 2 heads, intermediate 256, the shipped model's. It
 * was hidden 128 / 512 (bert_uncased_L-2_H-128_A-2's shape); trained on the recorded sessions, the smaller
 * one scored the same held out (`pnpm bench:keep`: 10.1% against 10.2% removed at 99% recall on the test
 * sessions) and ran 2.5–2.9× faster on the same batches (`pnpm bench:keep-speed`).
 */
export const DEFAULT_DIMS = Object.freeze({
  hiddenSize: 64,
  numLayers: 2,
  numHeads: 2,
  intermediateSize: 256,
  maxPositions: 512,
  typeVocabSize: 2,
  numLabels: 2,
  layerNormEps: 1e-12,
});

const positive = z.number().int().positive();

/** The fields of a HF BERT `config.json` that decide the weights' shapes; unknown fields are ignored. */
const HfBertConfig = z.object({
  model_type: z
    .literal('bert', { error: 'only BERT checkpoints are supported (model_type "bert")' })
    .optional(),
  vocab_size: positive,
  hidden_size: positive,
  num_hidden_layers: positive,
  num_attention_heads: positive,
  intermediate_size: positive,
  max_position_embeddings: positive.default(512),
  type_vocab_size: positive.default(2),
  layer_norm_eps: z.number().positive().default(1e-12),
  hidden_act: z
    .enum(['gelu'], { error: 'only "gelu" (the exact, erf-based GELU) is supported' })
    .default('gelu'),
});

/** Reads a base checkpoint's `config.json`; errors name the file and the field. */
export function readBertConfig(path: string): BertDims {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: cannot read a JSON config (${(error as Error).message})`);
  }
  const c = parseOrThrow(HfBertConfig, raw, path);
  if (c.hidden_size % c.num_attention_heads !== 0) {
    throw new Error(
      `${path}: hidden_size ${c.hidden_size} is not a multiple of num_attention_heads ${c.num_attention_heads}`,
    );
  }
  return {
    vocabSize: c.vocab_size,
    hiddenSize: c.hidden_size,
    numLayers: c.num_hidden_layers,
    numHeads: c.num_attention_heads,
    intermediateSize: c.intermediate_size,
    maxPositions: c.max_position_embeddings,
    typeVocabSize: c.type_vocab_size,
    numLabels: 2,
    layerNormEps: c.layer_norm_eps,
  };
}

/** The `config.json` written beside the exported model: what transformers.js and the codec read. */
export function bertConfigJson(dims: BertDims, padId: number): Record<string, unknown> {
  return {
    architectures: ['BertForTokenClassification'],
    model_type: 'bert',
    vocab_size: dims.vocabSize,
    hidden_size: dims.hiddenSize,
    num_hidden_layers: dims.numLayers,
    num_attention_heads: dims.numHeads,
    intermediate_size: dims.intermediateSize,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    attention_probs_dropout_prob: 0.1,
    max_position_embeddings: dims.maxPositions,
    type_vocab_size: dims.typeVocabSize,
    initializer_range: 0.02,
    layer_norm_eps: dims.layerNormEps,
    pad_token_id: padId,
    position_embedding_type: 'absolute',
    id2label: { ...ID2LABEL },
    label2id: Object.fromEntries(Object.entries(ID2LABEL).map(([id, label]) => [label, Number(id)])),
  };
}
