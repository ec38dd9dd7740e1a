import type { ServerResponse } from 'node:http';
import { dataEvent, namedEvent } from './sse.js';

/** The wire dialect a route speaks; errors the proxy itself raises are written in it. */
export type Dialect = 'anthropic' | 'openai';

/** Error kinds the proxy raises on its own behalf, with the status each maps to. */
const KINDS = Object.freeze({
  invalid_request: { status: 400, anthropic: 'invalid_request_error', openai: 'invalid_request_error' },
  unauthorized: { status: 401, anthropic: 'authentication_error', openai: 'invalid_request_error' },
  not_found: { status: 404, anthropic: 'not_found_error', openai: 'invalid_request_error' },
  too_large: { status: 413, anthropic: 'request_too_large', openai: 'invalid_request_error' },
  upstream_unreachable: { status: 502, anthropic: 'api_error', openai: 'server_error' },
  internal: { status: 500, anthropic: 'api_error', openai: 'server_error' },
});

/** A kind of error the proxy raises itself. */
export type ProxyErrorKind = keyof typeof KINDS;

/** The HTTP status of a proxy-raised error kind. */
export function statusOf(kind: ProxyErrorKind): number {
  return KINDS[kind].status;
}

/** The JSON error body each provider's SDK understands (Anthropic: `{type:"error",error}`, OpenAI: `{error}`). */
export function errorBody(dialect: Dialect, kind: ProxyErrorKind, message: string): Record<string, unknown> {
  if (dialect === 'anthropic') return { type: 'error', error: { type: KINDS[kind].anthropic, message } };
  return {
    error: {
      message,
      type: KINDS[kind].openai,
      param: null,
      code: kind === 'too_large' ? 'request_too_large' : null,
    },
  };
}

/** Answers with a provider-shaped error body (headers not yet sent). */
export function sendError(
  res: ServerResponse,
  dialect: Dialect,
  kind: ProxyErrorKind,
  message: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(dialect, kind, message));
  res.writeHead(statusOf(kind), {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...(kind === 'too_large' ? { connection: 'close' } : {}),
  });
  res.end(body);
}

/** The provider's own error type and code, kept when an upstream error is re-told in a stream. */
export interface UpstreamErrorKind {
  readonly type?: string;
  readonly code?: string | null;
}

/**
 * The event a streaming client reads as a failure once a 200 and some events have already gone out: the
 * proxy never turns a failure into a fake success. Anthropic streams an `error` event; OpenAI's SDK raises
 * on a `data:` chunk carrying `error`; the Responses API streams `event: error`. `kind` keeps the type
 * (and code) the upstream gave — `overloaded_error`, `rate_limit_error` — so a client retries as it would
 * on the provider's own; without one the event says `api_error` / `server_error`.
 */
export function streamErrorEvent(
  format: 'anthropic' | 'openai-chat' | 'openai-responses',
  message: string,
  kind: UpstreamErrorKind = {},
): string {
  if (format === 'anthropic') {
    return namedEvent('error', { type: 'error', error: { type: kind.type ?? 'api_error', message } });
  }
  if (format === 'openai-responses') {
    return namedEvent('error', {
      type: 'error',
      code: kind.code ?? kind.type ?? 'server_error',
      message,
      param: null,
    });
  }
  return dataEvent({
    error: { message, type: kind.type ?? 'server_error', param: null, code: kind.code ?? null },
  });
}
