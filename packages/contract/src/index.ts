export { Block, type BlockInput, Role } from './block.js';
export {
  DistilConfig,
  type DistilConfigInput,
  KeepModelConfig,
  ModelPrice,
  PricingConfig,
  ProxyConfig,
  RestoreStoreConfig,
  TierConfig,
} from './config.js';
export { CONTENT_KINDS, ContentKind } from './content-kind.js';
export { Decision } from './decision.js';
export {
  addressOf,
  type ContentAddress,
  HANDLE_IN_TEXT,
  HANDLE_PATTERN,
  Handle,
  HandleCollisionError,
  handleFor,
  isHandle,
  UnknownHandleError,
} from './handle.js';
export { DECISION_MARKER, type KeepContext, type KeepModel } from './keep-model.js';
export type { RestoreStore } from './restore-store.js';
export { Outcome, Trajectory, type TrajectoryInput, Turn } from './trajectory.js';
export { type FieldIssue, fieldIssues, fieldPath, parseOrThrow, ValidationError } from './validation.js';
