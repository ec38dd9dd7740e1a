import { type EncodedLine, padBatch } from '../src/batching.js';
import type { BertDims } from '../src/bert-config.js';
import type { TokenBatch } from '../src/bert-forward.js';
import { seededRandom } from '../src/bert-params.js';

/** A BERT small enough for a test to train in seconds: 1 layer, hidden 32, 2 heads. */
export const TINY_DIMS: BertDims = Object.freeze({
  vocabSize: 64,
  hiddenSize: 32,
  numLayers: 1,
  numHeads: 2,
  intermediateSize: 64,
  maxPositions: 32,
  typeVocabSize: 2,
  numLabels: 2,
  layerNormEps: 1e-12,
});

/**
 * Random lines over ids 4..vocab−1 ([CLS]=2, [SEP]=3 around them), labelled keep when they contain an id
 * below 12: a rule a tiny transformer learns in a few epochs.
 */
export function syntheticLines(
  count: number,
  seed: number,
  vocabSize = TINY_DIMS.vocabSize,
  maxLength = 20,
): EncodedLine[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const len = 3 + Math.floor(random() * (maxLength - 2));
    const ids = Int32Array.from({ length: len }, () => 4 + Math.floor(random() * (vocabSize - 4)));
    ids[0] = 2;
    ids[len - 1] = 3;
    const label = ids.slice(1, -1).some((id) => id < 12) ? 1 : 0;
    return { ids, label: label as 0 | 1 };
  });
}

/** A padded batch of lines of different lengths (so padding and the attention mask matter). */
export function raggedBatch(seed = 5): TokenBatch {
  return padBatch(syntheticLines(4, seed).map((l, i) => ({ ...l, ids: l.ids.slice(0, 3 + i * 4) })));
}
