// Public surface of @distil/codec. The transformer lives behind its own subpath, @distil/codec/transformer,
// so importing this entry never loads onnxruntime.

export {
  BLOCK_FEATURE_COUNT,
  BLOCK_FEATURE_NAMES,
  writeBlockFeatures,
} from './block-features.js';
export {
  type BlockTrainingOptions,
  type BlockTrainingResult,
  DEFAULT_COST_EXPONENT,
  DEFAULT_L2,
  type FittedBlockWeights,
  fitBlockLogistic,
  foldOf,
  type LabelledBlock,
  trainBlockLogistic,
} from './block-logistic-trainer.js';
export { COMMON_WORDS } from './common-words.js';
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
export { approximateTokens, LogisticKeepModel, sigmoid } from './logistic-keep-model.js';
export {
  isHeldOut,
  type LogisticTrainingOptions,
  type LogisticTrainingResult,
  trainLogisticKeepModel,
} from './logistic-trainer.js';
export {
  BlockLogisticWeights,
  formatLogisticWeights,
  HeldOutFigures,
  LineLogisticWeights,
  LogisticWeights,
  readLogisticWeights,
  SHIPPED_LOGISTIC_WEIGHTS,
  SplitMetrics,
  TrainingRecord,
  WeightsProvenance,
} from './logistic-weights.js';
export { fitLogisticNewton } from './newton-logistic.js';
export { REFERENCE_TOKEN, referenceTokens } from './reference-tokens.js';
export { removedAtRecall, rocAuc } from './removal-curve.js';
export { SALIENCE_RULES, SalienceKeepModel, salienceOf } from './salience-keep-model.js';
export {
  type BlockTokens,
  blockTokens,
  fitTokenNeed,
  lineNeedOdds,
  TOKEN_FEATURE_COUNT,
  TOKEN_FEATURE_NAMES,
  type TokenTrainingBlock,
  tokenNeeds,
  writtenFromLabels,
} from './token-need.js';
export {
  EMPTY_PRIOR,
  PRIOR_BUCKETS,
  readPrior,
  type SerialisedPrior,
  type TokenPrior,
  TokenPriorCounts,
  tokenBucket,
} from './token-prior.js';
export { readTrainingCorpus, type TrainingCorpus } from './training-corpus.js';
