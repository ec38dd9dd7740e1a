export { collectAnchors, mentionsAnchor } from './guard/anchors.js';
export { type GuardOptions, GuardReason, guardLines } from './guard/guard-lines.js';
export { lineShape } from './guard/line-shape.js';
export { isSurprising } from './guard/surprise.js';
export { distilHome } from './home.js';
export {
  type CompressedBlock,
  type CompressionTier,
  type CompressOptions,
  compressBlock,
} from './pipeline/compress-block.js';
export { detectKind } from './pipeline/detect-kind.js';
export { type LineSegments, splitSegments, stripTerminator } from './pipeline/lines.js';
export { restoreBlock } from './pipeline/restore-block.js';
export * from './pricing/index.js';
export * from './retrieval/index.js';
export * from './session/index.js';
export * from './store/index.js';
export * from './tier0/index.js';
export { containsStubSyntax, type FoundStub, findStubs, formatStub, STUB_IN_TEXT } from './tier1/stub.js';
export { isVerdict } from './tier1/verdicts.js';
export { countTokens, sharedTokenTable, useTokenTable } from './tokens.js';
export * from './validate/index.js';
