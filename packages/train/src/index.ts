// Public surface of @distil/train: train a BERT keep model on your own traces in tfjs and export it to ONNX.
// Nothing here is imported by the inference path (the codec loads the exported folder with onnxruntime).
export { type BaseCheckpoint, loadBaseCheckpoint, trimEmbeddingRows } from './base-checkpoint.js';
export {
  type BatchShape,
  DEFAULT_BATCH_SHAPE,
  type EncodedLine,
  lengthGroupedBatches,
  padBatch,
} from './batching.js';
export { type BertDims, bertConfigJson, DEFAULT_DIMS, ID2LABEL, readBertConfig } from './bert-config.js';
export { bertLogits, ParamTensors, type TokenBatch, tokenLossSum } from './bert-forward.js';
export { BertParams, bertParamSpecs, initBertParams, type ParamSpec } from './bert-params.js';
export {
  type BertTrainingOptions,
  type BertTrainingResult,
  type EpochSummary,
  type TrainingObserver,
  trainBert,
} from './bert-trainer.js';
export { decisionLabels, FollowingText, type LineCarriers, lineCarriers } from './decision-labels.js';
export { embeddingLookup, matMulFast } from './fast-gradients.js';
export { type GradientEngine, InProcessGradientEngine, type StepGradients } from './gradient-engine.js';
export { batchGradients, batchKeepProbabilities, batchLogits, profileGradientStep } from './gradient-step.js';
export { type EvaluationRow, formatEvaluationTable, type KeepMetrics, keepMetrics } from './keep-metrics.js';
export {
  type LabelAgreement,
  type LabelledLine,
  type LabelSource,
  labelAgreement,
  labelCorpusLines,
  SALIENCE_KEEP_THRESHOLD,
  type Split,
  splitOf,
} from './line-dataset.js';
export { LINE_LABELS_FILE, readLineLabels } from './line-labels-file.js';
export { ONNX_MODEL_PATH, writeModelFolder } from './model-folder-writer.js';
export { exportBertToOnnx, ONNX_IR_VERSION, ONNX_OPSET } from './onnx-export.js';
export { checkOnnxParity, onnxLogits, type ParityReport } from './onnx-parity.js';
export { encodeSafetensors, type NamedTensor, readSafetensors } from './safetensors.js';
export { type BackendPreference, ensureBackend } from './tfjs-runtime.js';
export { tokenizerConfigJson, tokenizerJson, writeTokenizerFiles } from './tokenizer-files.js';
export { readTraceCorpus, type TraceCorpus, type TraceDocument } from './trace-corpus.js';
export {
  type TrainTransformerOptions,
  type TrainTransformerReport,
  trainTransformer,
} from './train-transformer.js';
export { buildTrainingData, type TrainingData, type TrainingLabels } from './training-data.js';
export { labelToolOutputs } from './trajectory-lines.js';
export {
  bertBaseUncasedVocabulary,
  SPECIAL_TOKENS,
  trimVocabulary,
  Vocabulary,
  vocabularyFromText,
} from './vocabulary.js';
export { WordPieceTokenizer } from './wordpiece-tokenizer.js';
export { WorkerGradientEngine } from './worker-gradient-engine.js';
