export {
  type BatteryOptions,
  type BatteryReport,
  type CaseOutcome,
  HOSTILE_CASES,
  INVARIANTS,
  runAdversarialBattery,
} from './battery.js';
export {
  type ContextPath,
  type Conversation,
  type ConversationRequest,
  type ExpandAnswer,
  type ForwardedRequest,
  type SessionPathOptions,
  sessionPath,
} from './context-path.js';
export type { Branch, CaseCheck, HostileCase } from './hostile-case.js';
export { COLLIDING_HANDLE, COLLIDING_SEEDS, collidingRun } from './short-handle-collision.js';
export { anthropicWirePath, type ProxyUnderTest, type WirePathOptions } from './wire-path.js';
