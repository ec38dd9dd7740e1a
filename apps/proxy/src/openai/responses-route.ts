import { compressContext } from '../context/compress-context.js';
import { type Exchange, type PreparedExchange, postUpstream } from '../exchange.js';
import { headerValue } from '../http/hop-by-hop.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { sessionKey } from '../session/session-key.js';
import { type ResponsesRequest, readResponsesRequest } from './responses-body.js';
import { responsesContext, responsesRootTexts } from './responses-context.js';
import { applyResponseSplices, offerResponsesTools } from './responses-distil.js';
import { jsonResponses } from './responses-json.js';
import { streamResponses } from './responses-stream.js';

/**
 * POST /v1/responses: tool outputs compressed through the session, distil tools offered when the context
 * shows a handle, and the expand loop run for streaming and non-streaming requests. A request chained by
 * `previous_response_id` joins the session that produced that response, and only its new items are
 * encoded (the provider holds the rest). Bypassed or unreadable requests go upstream byte for byte.
 */
export async function handleResponses(exchange: Exchange, raw: Buffer): Promise<void> {
  const { req, rt } = exchange;
  const request = parseBody(raw);
  if (!request) {
    const upstream = await postUpstream(exchange, raw, false);
    await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
    return;
  }
  const chainedOn = request.previous_response_id ?? undefined;
  const linked =
    chainedOn && !headerValue(req.headers, 'x-distil-session')
      ? rt.sessions.keyOfResponse(chainedOn)
      : undefined;
  const key =
    linked ??
    sessionKey(
      req.headers,
      'openai-responses',
      chainedOn ? ['chain', chainedOn] : responsesRootTexts(request),
    );
  const session = rt.sessions.get(key);
  const spliced = applyResponseSplices(request, session);
  const mode = chainedOn ? 'continuation' : 'whole';
  const outcome = await compressContext(responsesContext(request, rt.excludedTools), session, mode);
  const wanted = rt.config.expandLoopCap > 0 && (outcome.handles.size > 0 || session.toolsOffered);
  const offered = wanted && offerResponsesTools(request);
  if (offered) session.toolsOffered = true;
  const rewritten = spliced || outcome.changed || offered;
  const body = rewritten ? JSON.stringify(request) : raw;
  const prepared: PreparedExchange = { ...exchange, session, outcome, offered, model: request.model };
  const link = (responseId: string): void => rt.sessions.link(responseId, key);
  if (request.stream === true) await streamResponses(prepared, request, body, rewritten, link);
  else await jsonResponses(prepared, request, body, rewritten, link);
}

function parseBody(raw: Buffer): ResponsesRequest | null {
  try {
    return readResponsesRequest(JSON.parse(raw.toString('utf8')));
  } catch {
    return null;
  }
}
