import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleMessages } from '../anthropic/messages-route.js';
import type { Exchange } from '../exchange.js';
import { headerValue } from '../http/hop-by-hop.js';
import type { Dialect } from '../http/provider-errors.js';
import { handleChat } from '../openai/chat-route.js';
import { handleResponses } from '../openai/responses-route.js';

/** A provider endpoint the proxy understands: it reads the whole body, then handles the exchange. */
export interface ProviderRoute {
  readonly dialect: Dialect;
  readonly handle: (exchange: Exchange, body: Buffer) => Promise<void>;
}

/**
 * The provider endpoints Distil rewrites, by `METHOD path` (query strings such as `?beta=true` ignored).
 * Every other path streams through untouched — on purpose `POST /v1/responses/compact` too: the provider
 * compacts the client's own history, and the opaque compaction item it returns must reach the client as
 * it was made (Distil then reads the compacted window the client sends next like any other request).
 */
export const PROVIDER_ROUTES: Readonly<Record<string, ProviderRoute>> = Object.freeze({
  'POST /v1/messages': {
    dialect: 'anthropic',
    handle: (exchange, body) => handleMessages(exchange, body, false),
  },
  'POST /v1/messages/count_tokens': {
    dialect: 'anthropic',
    handle: (exchange, body) => handleMessages(exchange, body, true),
  },
  'POST /v1/chat/completions': { dialect: 'openai', handle: handleChat },
  'POST /v1/responses': { dialect: 'openai', handle: handleResponses },
});

/** Distil's own endpoints live under this prefix; every one is guarded by the admin policy. */
export const ADMIN_PREFIX = '/distil/';

/** A handler of one of Distil's own endpoints (health, savings, and any an embedding command adds). */
export type AdminHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The path of a request target without its query. */
export function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/**
 * Which provider a request the proxy does not handle belongs to: Anthropic when it carries Anthropic's
 * version or key header or asks for an Anthropic-only path, else OpenAI.
 */
export function passThroughDialect(req: IncomingMessage): Dialect {
  if (headerValue(req.headers, 'anthropic-version') !== undefined) return 'anthropic';
  if (headerValue(req.headers, 'x-api-key') !== undefined) return 'anthropic';
  return pathOf(req.url).startsWith('/v1/messages') || pathOf(req.url).startsWith('/v1/complete')
    ? 'anthropic'
    : 'openai';
}
