export { type CanonicalJsonOptions, canonicalJson } from './canonical-json.js';
export { compactColumnar, expandColumnar } from './columnar.js';
export {
  type FoldOptions,
  foldLogLines,
  foldRepeats,
  foldTemplateRuns,
  unfoldLines,
  unfoldRepeats,
  unfoldTemplateRuns,
} from './line-fold.js';
export {
  type LosslessOptions,
  type LosslessResult,
  type LosslessTransform,
  losslessDecode,
  losslessEncode,
} from './lossless.js';
export { type MinedTemplates, mineTemplates } from './template-miner.js';
export { stripStyling } from './terminal-styling.js';
export {
  extractVolatile,
  formatVolatileTable,
  parseVolatileTable,
  restoreVolatile,
  type VolatileExtraction,
} from './volatile-fields.js';
