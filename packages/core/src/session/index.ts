export { type AstComparison, compareSource } from './ast-delta.js';
export { type BlockCompressor, pipelineCompressor } from './block-compressor.js';
export { OUTLINERS, type Outliner, outlineSource } from './outliners.js';
export { loadPythonParser, loadTypeScript, preloadParsers } from './parser-loaders.js';
export { deltaOf, restoreSentBlock } from './references.js';
export type { SentBlock, SentEncoding } from './sent-block.js';
export { Session, type SessionHistory, type SessionOptions, type SessionTurn } from './session.js';
export { type Skeleton, type SkeletonOptions, skeletonDigest } from './skeleton.js';
export {
  type Definition,
  detectSourceLanguage,
  type FoldRange,
  type SourceLanguage,
  type SourceOutline,
} from './source-outline.js';
export { applyTextDelta, textDelta } from './text-delta.js';
