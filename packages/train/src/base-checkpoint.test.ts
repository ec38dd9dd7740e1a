import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TINY_DIMS } from '../test/tiny-model.js';
import { loadBaseCheckpoint, trimEmbeddingRows } from './base-checkpoint.js';
import { initBertParams } from './bert-params.js';
import { toHfTensors } from './model-folder-writer.js';
import { encodeSafetensors, type NamedTensor, readSafetensors } from './safetensors.js';

const root = mkdtempSync(join(tmpdir(), 'distil-base-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hfConfig = {
  model_type: 'bert',
  vocab_size: TINY_DIMS.vocabSize,
  hidden_size: TINY_DIMS.hiddenSize,
  num_hidden_layers: TINY_DIMS.numLayers,
  num_attention_heads: TINY_DIMS.numHeads,
  intermediate_size: TINY_DIMS.intermediateSize,
  max_position_embeddings: TINY_DIMS.maxPositions,
};
const vocab = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  ...Array.from({ length: 59 }, (_, i) => `tok${i}`),
];

function checkpoint(name: string, tensors: Map<string, NamedTensor>, config: object = hfConfig): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'vocab.txt'), `${vocab.join('\n')}\n`);
  writeFileSync(join(dir, 'model.safetensors'), encodeSafetensors(tensors));
  return dir;
}

describe('safetensors', () => {
  it('round-trips float32 tensors and decodes F16 / BF16', () => {
    const tensors = new Map([['a', { shape: [2, 3], data: Float32Array.of(1, -2, 3.5, 0, 1e-3, 7) }]]);
    const path = join(root, 'rt.safetensors');
    writeFileSync(path, encodeSafetensors(tensors));
    const back = readSafetensors(path).get('a');
    expect(back?.shape).toEqual([2, 3]);
    expect(Array.from(back?.data ?? [])).toEqual(Array.from(tensors.get('a')?.data ?? []));

    const header = JSON.stringify({
      h: { dtype: 'F16', shape: [2], data_offsets: [0, 4] },
      b: { dtype: 'BF16', shape: [1], data_offsets: [4, 6] },
    });
    const bytes = Buffer.alloc(8 + header.length + 6);
    bytes.writeBigUInt64LE(BigInt(header.length), 0);
    bytes.write(header, 8);
    bytes.writeUInt16LE(0x3c00, 8 + header.length); // 1.0 in half precision
    bytes.writeUInt16LE(0xc000, 10 + header.length); // -2.0
    bytes.writeUInt16LE(0x3fc0, 12 + header.length); // 1.5 in bfloat16
    writeFileSync(path, bytes);
    const read = readSafetensors(path);
    expect(Array.from(read.get('h')?.data ?? [])).toEqual([1, -2]);
    expect(Array.from(read.get('b')?.data ?? [])).toEqual([1.5]);
  });

  it('rejects a file that is not safetensors, naming it', () => {
    const path = join(root, 'junk.safetensors');
    writeFileSync(path, 'not a model at all');
    expect(() => readSafetensors(path)).toThrow(path);
  });
});

describe('loadBaseCheckpoint', () => {
  it('loads HF-layout weights (PyTorch [out, in] kernels) back into the same parameters', () => {
    const params = initBertParams(TINY_DIMS, 11);
    const dir = checkpoint('good', toHfTensors(params));
    const base = loadBaseCheckpoint(dir);
    expect(base.hadClassifier).toBe(true);
    expect(base.vocabulary.size).toBe(TINY_DIMS.vocabSize);
    expect(Array.from(base.params.data)).toEqual(Array.from(params.data));
  });

  it('accepts a BertModel checkpoint (no bert. prefix, no classifier) and starts a fresh head', () => {
    const tensors = new Map(
      [...toHfTensors(initBertParams(TINY_DIMS, 12))]
        .filter(([name]) => !name.startsWith('classifier'))
        .map(([name, t]) => [name.replace(/^bert\./, ''), t]),
    );
    const base = loadBaseCheckpoint(checkpoint('bertmodel', tensors));
    expect(base.hadClassifier).toBe(false);
  });

  it('names the file, the tensor and both shapes when a shape does not match config.json', () => {
    const tensors = toHfTensors(initBertParams(TINY_DIMS, 13));
    const dir = checkpoint('wrong', tensors, { ...hfConfig, intermediate_size: 48 });
    expect(() => loadBaseCheckpoint(dir)).toThrow(
      /model\.safetensors: tensor bert\.encoder\.layer\.0\.intermediate\.dense\.weight has shape \[64, 32\], but .*config\.json implies \[48, 32\]/,
    );
  });

  it('names the missing file or field', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(() => loadBaseCheckpoint(empty)).toThrow(/has no config\.json/);
    const dir = checkpoint('badconfig', toHfTensors(initBertParams(TINY_DIMS)), {
      ...hfConfig,
      hidden_size: 'big',
    });
    expect(() => loadBaseCheckpoint(dir)).toThrow(/hidden_size/);
  });

  it('carries embedding rows over to a trimmed vocabulary', () => {
    const params = initBertParams(TINY_DIMS, 14);
    const trimmed = trimEmbeddingRows(params, Int32Array.of(0, 1, 2, 3, 40));
    const H = TINY_DIMS.hiddenSize;
    const from = params.viewOf('bert.embeddings.word_embeddings.weight');
    const to = trimmed.viewOf('bert.embeddings.word_embeddings.weight');
    expect(Array.from(to.subarray(4 * H, 5 * H))).toEqual(Array.from(from.subarray(40 * H, 41 * H)));
    expect(Array.from(trimmed.viewOf('classifier.weight'))).toEqual(
      Array.from(params.viewOf('classifier.weight')),
    );
  });
});
