import { type RequestDialect, readRequest, rewriteRequest } from '../context/rewrite-request.js';
import type { Exchange } from '../exchange.js';
import { PathPatterns } from '../json/json-scan.js';
import { sessionKey } from '../session/session-key.js';
import { type ChatRequest, readChatRequest } from './chat-body.js';
import { chatContext, chatRootTexts } from './chat-context.js';
import { applyChatSplices, CHAT_TOOLS_ADDED, offerChatTools } from './chat-distil.js';
import { jsonChat } from './chat-json.js';
import { streamChat } from './chat-stream.js';

/** Chat Completions requests: tool messages are the texts rewritten (see chatContext). */
const CHAT: RequestDialect<ChatRequest> = {
  patterns: new PathPatterns([
    ['messages', '*', 'content'],
    ['messages', '*', 'content', '*', 'text'],
    ['tools'],
  ]),
  history: 'messages',
  read: readChatRequest,
  splice: applyChatSplices,
  context: chatContext,
  offer: offerChatTools,
  tools: CHAT_TOOLS_ADDED,
};

/**
 * POST /v1/chat/completions: tool messages compressed through the session, distil tools offered when the
 * context shows a handle, the expand loop run for streaming and non-streaming requests. A body that is not
 * a Chat Completions request, or one sent with `x-distil-bypass: 1`, goes upstream byte for byte.
 */
export async function handleChat(exchange: Exchange, raw: Buffer): Promise<void> {
  const read = await readRequest(exchange, raw, CHAT);
  if (!read) return;
  const key = sessionKey(exchange.req.headers, 'openai-chat', chatRootTexts(read.request));
  const session = exchange.rt.sessions.get(key);
  const { prepared, request, body, rewritten } = await rewriteRequest(exchange, raw, read, session, CHAT);
  if (request.stream === true) await streamChat(prepared, request, body, rewritten);
  else await jsonChat(prepared, request, body, rewritten);
}
