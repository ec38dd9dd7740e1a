import { type RequestDialect, readRequest, rewriteRequest } from '../context/rewrite-request.js';
import { type Exchange, postUpstream, savedTokensOf } from '../exchange.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { PathPatterns } from '../json/json-scan.js';
import { sessionKey } from '../session/session-key.js';
import { ANTHROPIC_TOOLS_ADDED, applySplices, offerDistilTools } from './distil-round.js';
import { type MessagesRequest, readMessagesRequest } from './messages-body.js';
import { messagesContext } from './messages-context.js';
import { jsonMessages } from './messages-json.js';
import { MESSAGES_TEXT_PATHS } from './messages-parts.js';
import { streamMessages } from './messages-stream.js';

/** Messages requests: tool results and similar untrusted texts are rewritten (see messagesContext). */
const MESSAGES: RequestDialect<MessagesRequest> = {
  patterns: new PathPatterns([...MESSAGES_TEXT_PATHS, ['tools']]),
  history: 'messages',
  read: readMessagesRequest,
  splice: applySplices,
  context: messagesContext,
  offer: offerDistilTools,
  tools: ANTHROPIC_TOOLS_ADDED,
};

/** Texts that open every turn of one conversation: the system prompt and the first message's text. */
function rootTexts(request: MessagesRequest): string[] {
  const texts: string[] = [];
  const collect = (content: unknown): void => {
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content))
      for (const part of content) if (typeof part?.text === 'string') texts.push(part.text);
  };
  collect(request.system);
  collect(request.messages[0]?.content);
  return texts;
}

/**
 * POST /v1/messages and /v1/messages/count_tokens. The body is parsed, its history spliced with earlier
 * distil exchanges, its tool results compressed through the session, and the distil tools offered when
 * the context shows a handle. A body that does not parse as a Messages request, or a request with
 * `x-distil-bypass: 1`, goes upstream byte for byte.
 */
export async function handleMessages(exchange: Exchange, raw: Buffer, countOnly: boolean): Promise<void> {
  const read = await readRequest(exchange, raw, MESSAGES);
  if (!read) return;
  const key = sessionKey(exchange.req.headers, 'anthropic', rootTexts(read.request));
  const session = exchange.rt.sessions.get(key);
  const { prepared, request, body, rewritten } = await rewriteRequest(exchange, raw, read, session, MESSAGES);
  if (countOnly) {
    const upstream = await postUpstream(exchange, body, rewritten);
    await prepared.stored;
    await relayResponse(
      exchange.res,
      upstream,
      distilHeaders(exchange.clock, await savedTokensOf(prepared.outcome)),
    );
    return;
  }
  if (request.stream === true) await streamMessages(prepared, request, body, rewritten);
  else await jsonMessages(prepared, request, body, rewritten);
}
