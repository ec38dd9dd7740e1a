export {
  type AnthropicInputUsage,
  AnthropicPromptCache,
  LOOKBACK_BLOCKS,
} from './billing/anthropic-cache.js';
export {
  type AnthropicPrompt,
  anthropicPrompt,
  type CacheTtl,
  type PromptBlock,
  sharedBlocks,
} from './billing/anthropic-prompt.js';
export { type CallBill, inputTokens, priceCall, sumBills } from './billing/bill.js';
export { canonicalJson, commonPrefixLength } from './billing/canonical-json.js';
export { cacheableTokens, type OpenAIInputUsage, OpenAIPromptCache } from './billing/openai-cache.js';
export { type RenderedPrompt, responsesPrompt, sectionAt } from './billing/openai-prompt.js';
export { ClientProfile, loadProfile, profileFromRequest, shippedProfile } from './profiles/client-profile.js';
export { type LabelledOutput, labelledOutputs } from './replay/labelled-outputs.js';
export { normalisedLine } from './replay/needed-lines.js';
export { referenceTokens, sharesToken } from './replay/reference-tokens.js';
export { replayModel } from './replay/replay-model.js';
export {
  type ReplayOptions,
  type RouteReplay,
  replaySession,
  type SessionReplay,
  sendSession,
} from './replay/replay-session.js';
export { replyText, requestBody, type ToolResults, writtenText } from './replay/request-bodies.js';
export { entriesOfBody, type ToolResultText, toolResultsOf } from './replay/tool-results.js';
export { type Fidelity, fidelityOf } from './report/fidelity.js';
export { heldBackBy, type SavingsTotals, summarise } from './report/savings-summary.js';
export { type SessionSavings, sessionSavings } from './report/session-savings.js';
export { importClaudeCodeLog, looksLikeClaudeCodeLog } from './sessions/claude-code-log.js';
export {
  CODEX_DEFAULT_MODEL,
  importCodexRollout,
  looksLikeCodexRollout,
} from './sessions/codex-rollout.js';
export {
  sessionFromTrajectory,
  sessionsFromTrajectories,
  TRAJECTORY_DEFAULT_MODEL,
} from './sessions/from-trajectory.js';
export {
  defaultSessionFolders,
  type FoundSessions,
  importFile,
  importSessions,
  type SkippedFile,
} from './sessions/import-sessions.js';
export { type JsonLines, parseJsonLines, readJsonLines } from './sessions/json-lines.js';
export type {
  RecordedCall,
  RecordedSession,
  RecordedUsage,
  SessionSource,
  WireApi,
} from './sessions/recorded-session.js';
export {
  messagesToolName,
  RECORDED_TOOL_DESCRIPTION,
  toolDefinitionsOf,
} from './sessions/trajectory-tools.js';
export {
  type BilledPrompt,
  type BillingUpstream,
  type BillingUpstreamOptions,
  startBillingUpstream,
  type UpstreamCall,
} from './upstream/billing-upstream.js';
export { EXCHANGE_HEADER, exchangeOf, readBody, recordableHeaders } from './upstream/http-body.js';
export {
  type ConversationView,
  messagesView,
  responsesView,
  type ToolCallSeen,
} from './wire/conversation-view.js';
export {
  type Message,
  type MessagePart,
  MessagesRequest,
  partsOf,
  toolResultText,
} from './wire/messages-request.js';
export {
  type InputItem,
  itemsOf,
  messageText,
  ResponsesRequest,
  toolOutputText,
} from './wire/responses-request.js';
export {
  callsOf,
  type ReplyEnvelope,
  type ScriptedModel,
  type ScriptedReply,
  type ToolCallSpec,
} from './wire/scripted-reply.js';
