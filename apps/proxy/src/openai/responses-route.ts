import { type RequestDialect, readRequest, rewriteRequest } from '../context/rewrite-request.js';
import type { Exchange } from '../exchange.js';
import { headerValue } from '../http/hop-by-hop.js';
import { PathPatterns } from '../json/json-scan.js';
import { sessionKey } from '../session/session-key.js';
import { type ResponsesRequest, readResponsesRequest } from './responses-body.js';
import { responsesContext, responsesRootTexts } from './responses-context.js';
import { applyResponseSplices, offerResponsesTools, RESPONSES_TOOLS_ADDED } from './responses-distil.js';
import { RESPONSES_TEXT_PATHS } from './responses-items.js';
import { jsonResponses } from './responses-json.js';
import { streamResponses } from './responses-stream.js';

/** Responses requests: tool outputs are the texts rewritten (see responsesContext). */
const RESPONSES: RequestDialect<ResponsesRequest> = {
  patterns: new PathPatterns([...RESPONSES_TEXT_PATHS, ['tools']]),
  history: 'input',
  read: readResponsesRequest,
  splice: applyResponseSplices,
  context: responsesContext,
  offer: offerResponsesTools,
  tools: RESPONSES_TOOLS_ADDED,
};

/**
 * POST /v1/responses: tool outputs compressed through the session, distil tools offered when the context
 * shows a handle, and the expand loop run for streaming and non-streaming requests. A request chained by
 * `previous_response_id` joins the session that produced that response, and only its new items are
 * encoded (the provider holds the rest). Bypassed or unreadable requests go upstream byte for byte.
 */
export async function handleResponses(exchange: Exchange, raw: Buffer): Promise<void> {
  const { req, rt } = exchange;
  const read = await readRequest(exchange, raw, RESPONSES);
  if (!read) return;
  const { request } = read;
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
  const mode = chainedOn ? 'continuation' : 'whole';
  const rewrite = await rewriteRequest(exchange, raw, read, session, RESPONSES, mode);
  const { prepared, body, rewritten } = rewrite;
  const link = (responseId: string): void => rt.sessions.link(responseId, key);
  if (request.stream === true) await streamResponses(prepared, rewrite.request, body, rewritten, link);
  else await jsonResponses(prepared, rewrite.request, body, rewritten, link);
}
