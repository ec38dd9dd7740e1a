import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors as undiciErrors } from 'undici';
import type { Exchange } from '../exchange.js';
import { errorLabel } from '../fail-open/part-failure.js';
import { forwardUntouched } from '../fail-open/stand-aside.js';
import { headerValue } from '../http/hop-by-hop.js';
import { type Dialect, sendError } from '../http/provider-errors.js';
import { ExchangeClock } from '../http/relay.js';
import { BodyTooLargeError, declaredTooLarge, readBody } from '../http/request-body.js';
import type { ProxyRuntime } from '../runtime.js';
import { adminRefusal } from './admin-routes.js';
import { adminAllowed } from './bind-policy.js';
import { passThrough } from './pass-through.js';
import { ADMIN_PREFIX, type AdminHandler, PROVIDER_ROUTES, passThroughDialect, pathOf } from './routes.js';

/** Whether an error means the upstream could not be reached or answered (→ 502, never a fake reply). */
function isUpstreamFailure(error: unknown): boolean {
  return (
    error instanceof undiciErrors.UndiciError ||
    (error instanceof Error &&
      /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|socket/i.test(error.message))
  );
}

/**
 * The proxy's request listener. Provider endpoints are read whole (the JSON is needed to compress it),
 * everything else streams through; Distil's own endpoints answer only under the admin policy. Errors
 * come back in the dialect of the endpoint, with an honest status: 413 for a body over the limit, 502
 * when the upstream cannot be reached, and the upstream's own status for everything it answered. A
 * failure of Distil's own parts never fails the request: it goes upstream untouched (see forwardUntouched).
 */
export function createRequestHandler(
  rt: ProxyRuntime,
  adminRoutes: Readonly<Record<string, AdminHandler>>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(req, res, rt, adminRoutes);
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  rt: ProxyRuntime,
  adminRoutes: Readonly<Record<string, AdminHandler>>,
): Promise<void> {
  const clock = new ExchangeClock();
  // Only origin-form targets (`/v1/messages`) name something here: an absolute-form target
  // (`GET http://evil.example/x`, a forward-proxy request) or `*` is the client's mistake, not a 500.
  if (!(req.url ?? '').startsWith('/')) {
    sendError(
      res,
      passThroughDialect(req),
      'invalid_request',
      'proxy: the request target must be a path such as /v1/messages, not a full URL',
    );
    return;
  }
  const path = pathOf(req.url);
  if (path.startsWith(ADMIN_PREFIX) || Object.hasOwn(adminRoutes, path)) {
    if (!adminAllowed(req, rt.config.adminToken)) return adminRefusal(res, 401);
    const admin = Object.hasOwn(adminRoutes, path) ? adminRoutes[path] : undefined;
    if (!admin) return adminRefusal(res, 404);
    try {
      await admin(req, res);
    } catch (error) {
      rt.log(`admin ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) adminRefusal(res, 404);
    }
    return;
  }

  const route = PROVIDER_ROUTES[`${req.method} ${path}`];
  const dialect: Dialect = route?.dialect ?? passThroughDialect(req);
  const upstreamBase = dialect === 'anthropic' ? rt.config.anthropicUpstream : rt.config.openaiUpstream;
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const exchange: Exchange = { req, res, rt, clock, upstreamBase, signal: abort.signal };
  try {
    if (declaredTooLarge(req, rt.config.maxBodyBytes)) throw new BodyTooLargeError(rt.config.maxBodyBytes);
    // Unknown endpoints, and provider requests sent with `x-distil-bypass: 1`, stream through untouched.
    if (!route || headerValue(req.headers, 'x-distil-bypass') === '1') {
      await passThrough(exchange);
      return;
    }
    const body = await readBody(req, rt.config.maxBodyBytes);
    rt.observe?.({
      dialect,
      route: `${req.method} ${path}`,
      target: req.url ?? '/',
      headers: req.headers,
      body,
      res,
      clock,
      upstreamBase,
    });
    try {
      await route.handle(exchange, body);
    } catch (error) {
      // Distil's own failure before anything went upstream: the client's bytes go as they came.
      if (abort.signal.aborted || isUpstreamFailure(error) || clock.upstreamCalls > 0 || res.headersSent)
        throw error;
      await forwardUntouched(exchange, body, error);
    }
  } catch (error) {
    if (abort.signal.aborted) return;
    if (error instanceof BodyTooLargeError) {
      sendError(res, dialect, 'too_large', error.message);
      return;
    }
    const label = errorLabel(error);
    if (isUpstreamFailure(error)) {
      rt.log(`${req.method} ${path}: upstream unreachable: ${label}`);
      sendError(res, dialect, 'upstream_unreachable', `proxy: cannot reach the upstream (${label})`);
      return;
    }
    // Only after an upstream call (so the request cannot simply be sent again): the text names no
    // internals — no local path, no store client's wording.
    rt.log(`${req.method} ${path}: failed after the upstream answered: ${label}`);
    sendError(res, dialect, 'internal', 'proxy: the reply could not be completed; retry the request');
  }
}
