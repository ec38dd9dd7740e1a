export {
  type AnthropicInputUsage,
  AnthropicPromptCache,
  LOOKBACK_BLOCKS,
} from './billing/anthropic-cache.js';
export {
  type AnthropicPrompt,
  anthropicPrompt,
  type PromptBlock,
  sharedBlocks,
} from './billing/anthropic-prompt.js';
export { type CallBill, inputTokens, priceCall, sumBills } from './billing/bill.js';
export { canonicalJson, commonPrefixLength } from './billing/canonical-json.js';
export { cacheableTokens, type OpenAIInputUsage, OpenAIPromptCache } from './billing/openai-cache.js';
export { responsesPrompt } from './billing/openai-prompt.js';
export { claudeCodeCli, codexCli, type InstalledCli } from './cli/cli-binaries.js';
export {
  type ConversationView,
  messagesView,
  responsesView,
  type ToolCallSeen,
} from './model/conversation-view.js';
export { findFailure, lexerSession, type ScriptedModel, type SessionLength } from './model/lexer-session.js';
export { type AgentKind, claudeCodeToolbelt, codexToolbelt, type Toolbelt } from './model/toolbelt.js';
export { acceptanceChecks, type Check, type SessionComparison, savedShare } from './report/acceptance.js';
export { compressReference } from './report/compress-reference.js';
export { formatSession } from './report/print-report.js';
export { type RouteFigures, routeFigures } from './report/session-figures.js';
export { type ComparedSession, compareSession, sessionLabel } from './run/compare-session.js';
export { CODEX_MODEL, type Route, type RouteRun, runSession, type SessionSpec } from './run/run-session.js';
export { type AgentTap, startAgentTap } from './upstream/agent-tap.js';
export { type FakeUpstream, startFakeUpstream, type UpstreamCall } from './upstream/fake-upstream.js';
export { CI_LOG_PATH, prepareWorkspace, type WorkspaceTemplate } from './workspace/workspace.js';
