// Public surface of @distil/codec. The transformer lives behind its own subpath, @distil/codec/transformer,
// so importing this entry never loads onnxruntime.
export {
  DEFAULT_TRANSFORMER_MODEL,
  KEEP_MODEL_NAMES,
  KEEP_MODELS,
  type KeepModelEntry,
  type KeepModelName,
  keepModelConfigFromFlag,
  loadKeepModel,
  type ScoringKeepModel,
} from './keep-model-registry.js';
export { KeywordScanner, MAX_FAMILIES, NON_ASCII } from './keyword-scan.js';
export {
  FEATURE_COUNT,
  FEATURE_NAMES,
  type FeatureName,
  lineFeatures,
  writeFeatures,
} from './line-features.js';
export {
  DEBUG_PATTERN,
  ERROR_PATTERN,
  KEY_VALUE_PATTERN,
  VERDICT_PATTERN,
} from './line-signals.js';
export { LogisticKeepModel, sigmoid } from './logistic-keep-model.js';
export {
  isHeldOut,
  type LogisticTrainingOptions,
  type LogisticTrainingResult,
  trainLogisticKeepModel,
} from './logistic-trainer.js';
export {
  formatLogisticWeights,
  LogisticWeights,
  readLogisticWeights,
  SHIPPED_LOGISTIC_WEIGHTS,
  SplitMetrics,
  TrainingRecord,
} from './logistic-weights.js';
export { SALIENCE_RULES, SalienceKeepModel, salienceOf } from './salience-keep-model.js';
export { readTrainingCorpus, type TrainingCorpus } from './training-corpus.js';
