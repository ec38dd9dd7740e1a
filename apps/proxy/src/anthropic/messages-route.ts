import { compressContext } from '../context/compress-context.js';
import { type Exchange, type PreparedExchange, postUpstream, savedTokensOf } from '../exchange.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { sessionKey } from '../session/session-key.js';
import { applySplices, offerDistilTools } from './distil-round.js';
import { type MessagesRequest, readMessagesRequest } from './messages-body.js';
import { messagesContext } from './messages-context.js';
import { jsonMessages } from './messages-json.js';
import { streamMessages } from './messages-stream.js';

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
  const { req, rt } = exchange;
  const request = parseBody(raw);
  if (!request) {
    const upstream = await postUpstream(exchange, raw, false);
    await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
    return;
  }
  const session = rt.sessions.get(sessionKey(req.headers, 'anthropic', rootTexts(request)));
  const spliced = applySplices(request, session);
  const outcome = await compressContext(messagesContext(request, rt.excludedTools), session);
  const wanted = rt.config.expandLoopCap > 0 && (outcome.handles.size > 0 || session.toolsOffered);
  const offered = wanted && offerDistilTools(request);
  if (offered) session.toolsOffered = true;
  const rewritten = spliced || outcome.changed || offered;
  const body = rewritten ? JSON.stringify(request) : raw;
  const prepared: PreparedExchange = { ...exchange, session, outcome, offered, model: request.model };
  if (countOnly) {
    const upstream = await postUpstream(exchange, body, rewritten);
    await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, savedTokensOf(outcome)));
    return;
  }
  if (request.stream === true) await streamMessages(prepared, request, body, rewritten);
  else await jsonMessages(prepared, request, body, rewritten);
}

function parseBody(raw: Buffer): MessagesRequest | null {
  try {
    return readMessagesRequest(JSON.parse(raw.toString('utf8')));
  } catch {
    return null;
  }
}
