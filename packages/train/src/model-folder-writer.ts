import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bertConfigJson } from './bert-config.js';
import type { BertParams } from './bert-params.js';
import { exportBertToOnnx } from './onnx-export.js';
import { encodeSafetensors, type NamedTensor } from './safetensors.js';
import { writeTokenizerFiles } from './tokenizer-files.js';
import type { Vocabulary } from './vocabulary.js';

/** The ONNX file inside a model folder, where transformers.js and the codec look for it. */
export const ONNX_MODEL_PATH = join('onnx', 'model.onnx');

/** The parameters in HF BertForTokenClassification layout (dense kernels back to [out, in]). */
export function toHfTensors(params: BertParams): Map<string, NamedTensor> {
  const out = new Map<string, NamedTensor>();
  params.specs.forEach((spec, i) => {
    const view = params.view(i);
    if (!spec.hfTransposed) {
      out.set(spec.name, { shape: spec.shape, data: view.slice() });
      return;
    }
    const [rows, cols] = spec.shape as [number, number];
    const data = new Float32Array(view.length);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) data[c * rows + r] = view[r * cols + c] as number;
    out.set(spec.name, { shape: [cols, rows], data });
  });
  return out;
}

/** Files written and their sizes in bytes. */
export type WrittenFiles = Readonly<Record<string, number>>;

/**
 * Writes a model folder in the Hugging Face layout: `config.json`, `tokenizer.json`,
 * `tokenizer_config.json`, `special_tokens_map.json`, `vocab.txt`, `onnx/model.onnx` (what transformers.js
 * and the codec's TransformerKeepModel load) and `model.safetensors` (the same weights for PyTorch, or
 * for `--base` to fine-tune further). Returns the ONNX bytes for the parity check.
 */
export function writeModelFolder(
  folder: string,
  params: BertParams,
  vocabulary: Vocabulary,
  seqLen: number,
): { onnx: Uint8Array; files: WrittenFiles } {
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const onnx = exportBertToOnnx(params);
  writeFileSync(join(folder, ONNX_MODEL_PATH), onnx);
  writeFileSync(
    join(folder, 'config.json'),
    `${JSON.stringify(bertConfigJson(params.dims, vocabulary.padId), null, 2)}\n`,
  );
  writeTokenizerFiles(folder, vocabulary, seqLen);
  writeFileSync(join(folder, 'model.safetensors'), encodeSafetensors(toHfTensors(params), { format: 'pt' }));
  const names = [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    'special_tokens_map.json',
    'vocab.txt',
    ONNX_MODEL_PATH,
    'model.safetensors',
  ];
  const files: Record<string, number> = {};
  for (const name of names) files[name] = statSync(join(folder, name)).size;
  return { onnx, files };
}
