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
export { importClaudeCodeLog, looksLikeClaudeCodeLog } from './sessions/claude-code-log.js';
export {
  sessionFromTrajectory,
  sessionsFromTrajectories,
  TRAJECTORY_DEFAULT_MODEL,
} from './sessions/from-trajectory.js';
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
