// @distil/codec/transformer: the ONNX keep model. A subpath of its own so that @distil/codec installs and
// starts without onnxruntime-node; even here the runtime is imported only when a model is opened.

export { fusableGelu } from './gelu-rewrite.js';
export { type BatchLimits, batchByLength, type LengthBatch } from './length-batches.js';
export {
  KeepModelFolderConfig,
  KeepModelTokenizerConfig,
  MODEL_FOLDER_FILES,
  type ModelFolder,
  maxSequenceLength,
  readModelFolder,
} from './model-folder.js';
export {
  DEFAULT_SESSION_OPTIONS,
  type EncodedBatch,
  ortSessionOptions,
  type SessionOptions as TransformerSessionOptions,
} from './onnx-runtime.js';
export { WordPieceTokenizerJson } from './tokenizer-json.js';
export { TransformerKeepModel, type TransformerKeepModelOptions } from './transformer-keep-model.js';
export { WordPieceTokenizer } from './wordpiece-tokenizer.js';
