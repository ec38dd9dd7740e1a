import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseOrThrow, ValidationError } from '@distil/contract';
import { z } from 'zod';
import { WordPieceTokenizerJson } from './tokenizer-json.js';

/** The files a keep-model folder holds: the Hugging Face layout, so transformers.js can load it too. */
export const MODEL_FOLDER_FILES = Object.freeze([
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
] as const);

/** The fields of `config.json` the keep model reads; the rest of a Hugging Face config is allowed. */
export const KeepModelFolderConfig = z
  .object({
    model_type: z.string().optional(),
    max_position_embeddings: z.number().int().positive().optional(),
    id2label: z
      .record(z.string(), z.string())
      .refine((labels) => Object.keys(labels).length === 2, 'expected two labels: 0 = drop, 1 = keep')
      .optional(),
  })
  .loose();
export type KeepModelFolderConfig = z.infer<typeof KeepModelFolderConfig>;

/** The fields of `tokenizer_config.json` the keep model reads. */
export const KeepModelTokenizerConfig = z
  .object({
    tokenizer_class: z.string().optional(),
    do_lower_case: z.boolean().optional(),
    model_max_length: z.number().positive().optional(),
  })
  .loose();
export type KeepModelTokenizerConfig = z.infer<typeof KeepModelTokenizerConfig>;

/** A model folder read and validated; the ONNX bytes are loaded but not yet run. */
export interface ModelFolder {
  readonly folder: string;
  readonly config: KeepModelFolderConfig;
  readonly tokenizerConfig: KeepModelTokenizerConfig;
  readonly tokenizer: WordPieceTokenizerJson;
  readonly modelPath: string;
  readonly modelBytes: Uint8Array;
}

/** Hugging Face writes a huge number as `model_max_length` to mean "no limit". */
const NO_LIMIT = 1_000_000;

/**
 * The longest sequence (specials included) the model should see: the smallest of `model_max_length`,
 * `max_position_embeddings` and `cap`. A keep decision on a line's first 128 tokens loses little, and
 * attention cost grows with the square of the length.
 */
export function maxSequenceLength(folder: ModelFolder, cap = 128): number {
  const fromTokenizer = folder.tokenizerConfig.model_max_length;
  const limits = [cap, folder.config.max_position_embeddings ?? cap];
  if (fromTokenizer !== undefined && fromTokenizer < NO_LIMIT) limits.push(Math.floor(fromTokenizer));
  return Math.min(...limits);
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError(path, [
      { path: '(file)', message: `not valid JSON: ${(error as Error).message}` },
    ]);
  }
}

/**
 * Reads a keep-model folder (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx). A
 * missing folder or file is an Error that names every missing path; a malformed file is a ValidationError
 * naming the file and each bad field.
 */
export function readModelFolder(folder: string): ModelFolder {
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new Error(`transformer model folder not found: ${folder}`);
  }
  if (!isFolder) throw new Error(`transformer model path is not a folder: ${folder}`);
  const missing = MODEL_FOLDER_FILES.map((file) => join(folder, file)).filter((path) => {
    try {
      return !statSync(path).isFile();
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `transformer model folder ${folder} is missing ${missing.join(', ')} ` +
        `(a model folder holds ${MODEL_FOLDER_FILES.join(', ')})`,
    );
  }
  const configPath = join(folder, 'config.json');
  const tokenizerPath = join(folder, 'tokenizer.json');
  const tokenizerConfigPath = join(folder, 'tokenizer_config.json');
  const modelPath = join(folder, 'onnx', 'model.onnx');
  const config = parseOrThrow(KeepModelFolderConfig, readJson(configPath), configPath);
  const tokenizerConfig = parseOrThrow(
    KeepModelTokenizerConfig,
    readJson(tokenizerConfigPath),
    tokenizerConfigPath,
  );
  const tokenizer = parseOrThrow(WordPieceTokenizerJson, readJson(tokenizerPath), tokenizerPath);
  const modelBytes = new Uint8Array(readFileSync(modelPath));
  if (modelBytes.length === 0) throw new Error(`ONNX model is empty: ${modelPath}`);
  return { folder, config, tokenizerConfig, tokenizer, modelPath, modelBytes };
}
