import { compressContext } from '../context/compress-context.js';
import { type Exchange, type PreparedExchange, postUpstream } from '../exchange.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { sessionKey } from '../session/session-key.js';
import { type ChatRequest, readChatRequest } from './chat-body.js';
import { chatContext, chatRootTexts } from './chat-context.js';
import { applyChatSplices, offerChatTools } from './chat-distil.js';
import { jsonChat } from './chat-json.js';
import { streamChat } from './chat-stream.js';

/**
 * POST /v1/chat/completions: tool messages compressed through the session, distil tools offered when the
 * context shows a handle, the expand loop run for streaming and non-streaming requests. A body that is not
 * a Chat Completions request, or one sent with `x-distil-bypass: 1`, goes upstream byte for byte.
 */
export async function handleChat(exchange: Exchange, raw: Buffer): Promise<void> {
  const { req, rt } = exchange;
  const request = parseBody(raw);
  if (!request) {
    const upstream = await postUpstream(exchange, raw, false);
    await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
    return;
  }
  const session = rt.sessions.get(sessionKey(req.headers, 'openai-chat', chatRootTexts(request)));
  const spliced = applyChatSplices(request, session);
  const outcome = await compressContext(chatContext(request, rt.excludedTools), session);
  const wanted = rt.config.expandLoopCap > 0 && (outcome.handles.size > 0 || session.toolsOffered);
  const offered = wanted && offerChatTools(request);
  if (offered) session.toolsOffered = true;
  const rewritten = spliced || outcome.changed || offered;
  const body = rewritten ? JSON.stringify(request) : raw;
  const prepared: PreparedExchange = { ...exchange, session, outcome, offered, model: request.model };
  if (request.stream === true) await streamChat(prepared, request, body, rewritten);
  else await jsonChat(prepared, request, body, rewritten);
}

function parseBody(raw: Buffer): ChatRequest | null {
  try {
    return readChatRequest(JSON.parse(raw.toString('utf8')));
  } catch {
    return null;
  }
}
