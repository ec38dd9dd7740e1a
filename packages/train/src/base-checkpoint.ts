import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BertDims, readBertConfig } from './bert-config.js';
import { type BertParams, initBertParams } from './bert-params.js';
import { readSafetensors } from './safetensors.js';
import { bertBaseUncasedVocabulary, type Vocabulary, vocabularyFromText } from './vocabulary.js';

/** A pretrained starting point: its shape, its weights (classifier random when absent) and its vocabulary. */
export interface BaseCheckpoint {
  readonly dims: BertDims;
  readonly params: BertParams;
  readonly vocabulary: Vocabulary;
  /** Whether the checkpoint had a 2-label classifier head (else it starts random). */
  readonly hadClassifier: boolean;
}

/** Where a HF name may sit: BertModel has no prefix, the *For* heads put the encoder under `bert.`. */
function candidates(name: string): string[] {
  const names = [name, name.replace(/^bert\./, '')];
  // Checkpoints converted from TensorFlow call LayerNorm's parameters gamma/beta.
  for (const n of [...names]) {
    if (n.includes('LayerNorm.weight')) names.push(n.replace('LayerNorm.weight', 'LayerNorm.gamma'));
    if (n.includes('LayerNorm.bias')) names.push(n.replace('LayerNorm.bias', 'LayerNorm.beta'));
  }
  return names;
}

function readBaseVocabulary(dir: string, dims: BertDims): Vocabulary {
  const tokenizerConfig = join(dir, 'tokenizer_config.json');
  if (existsSync(tokenizerConfig)) {
    let lower: unknown;
    try {
      lower = (JSON.parse(readFileSync(tokenizerConfig, 'utf8')) as { do_lower_case?: unknown })
        .do_lower_case;
    } catch (error) {
      throw new Error(`${tokenizerConfig}: cannot read a JSON config (${(error as Error).message})`);
    }
    // Our tokenizer lower-cases and strips accents, as uncased BERTs expect; a cased vocabulary would be
    // matched against text it never sees.
    if (lower === false) {
      throw new Error(`${tokenizerConfig}: do_lower_case is false; only uncased checkpoints are supported`);
    }
  }
  const vocabTxt = join(dir, 'vocab.txt');
  let vocabulary: Vocabulary;
  if (existsSync(vocabTxt)) vocabulary = vocabularyFromText(readFileSync(vocabTxt, 'utf8'));
  else if (dims.vocabSize === 30522) vocabulary = bertBaseUncasedVocabulary();
  else {
    throw new Error(
      `${dir}: no vocab.txt, and config.json vocab_size ${dims.vocabSize} is not bert-base-uncased's 30522`,
    );
  }
  if (vocabulary.size !== dims.vocabSize) {
    throw new Error(
      `${vocabTxt}: ${vocabulary.size} tokens, but config.json says vocab_size ${dims.vocabSize}`,
    );
  }
  return vocabulary;
}

/**
 * Loads `dir/config.json` + `dir/model.safetensors` (a HF BERT checkpoint such as
 * bert_uncased_L-2_H-128_A-2) into our parameter layout. Every encoder tensor must be present with the
 * shape config.json implies; the error names the file, the tensor, and both shapes.
 */
export function loadBaseCheckpoint(dir: string, seed = 42): BaseCheckpoint {
  const configPath = join(dir, 'config.json');
  const weightsPath = join(dir, 'model.safetensors');
  if (!existsSync(configPath)) throw new Error(`${dir}: --base folder has no config.json`);
  if (!existsSync(weightsPath)) {
    throw new Error(
      `${dir}: --base folder has no model.safetensors (convert pytorch_model.bin with transformers first)`,
    );
  }
  const dims = readBertConfig(configPath);
  const vocabulary = readBaseVocabulary(dir, dims);
  const tensors = readSafetensors(weightsPath);
  const params = initBertParams(dims, seed, vocabulary.padId);
  let hadClassifier = true;
  params.specs.forEach((spec, i) => {
    const found = candidates(spec.name).find((n) => tensors.has(n));
    if (!found) {
      if (spec.name.startsWith('classifier.')) {
        hadClassifier = false;
        return;
      }
      throw new Error(`${weightsPath}: tensor ${spec.name} is missing`);
    }
    const tensor = tensors.get(found) as { shape: readonly number[]; data: Float32Array };
    const expected = spec.hfTransposed ? [...spec.shape].reverse() : [...spec.shape];
    const mismatch =
      tensor.shape.length !== expected.length || tensor.shape.some((d, k) => d !== expected[k]);
    if (mismatch && spec.name.startsWith('classifier.')) {
      // A head for other labels (e.g. an NER checkpoint) is replaced by a fresh 2-label head.
      hadClassifier = false;
      return;
    }
    if (mismatch) {
      throw new Error(
        `${weightsPath}: tensor ${found} has shape [${tensor.shape.join(', ')}], but ${configPath} implies ` +
          `[${expected.join(', ')}] (hidden_size ${dims.hiddenSize}, intermediate_size ${dims.intermediateSize}, ` +
          `vocab_size ${dims.vocabSize}, max_position_embeddings ${dims.maxPositions})`,
      );
    }
    const view = params.view(i);
    if (!spec.hfTransposed) view.set(tensor.data);
    else {
      // PyTorch Linear stores [out, in]; we multiply x·W with W as [in, out].
      const [rows, cols] = expected as [number, number];
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) view[c * rows + r] = tensor.data[r * cols + c] as number;
    }
  });
  return { dims, params, vocabulary, hadClassifier };
}

/** The same parameters with the word-embedding table cut down to `sourceIds` rows (a trimmed vocabulary). */
export function trimEmbeddingRows(params: BertParams, sourceIds: Int32Array): BertParams {
  const dims: BertDims = { ...params.dims, vocabSize: sourceIds.length };
  const trimmed = initBertParams(dims);
  const H = dims.hiddenSize;
  params.specs.forEach((spec, i) => {
    const j = trimmed.indexOf(spec.name) as number;
    if (spec.name !== 'bert.embeddings.word_embeddings.weight') {
      trimmed.view(j).set(params.view(i));
      return;
    }
    const from = params.view(i);
    const to = trimmed.view(j);
    sourceIds.forEach((id, row) => {
      to.set(from.subarray(id * H, (id + 1) * H), row * H);
    });
  });
  return trimmed;
}
