import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * Header fields that describe one connection, not the message (RFC 9110 §7.6.1: Connection and the fields
 * it names, Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade), plus the proxy's own
 * authentication fields (RFC 9110 §11.7), which are meant for this hop alone. A proxy must not forward them.
 */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'trailer',
]);

/** Fields that describe the body's framing; dropped whenever the proxy re-frames or rewrites the body. */
const FRAMING: ReadonlySet<string> = new Set(['content-length']);

/** Headers addressed to Distil itself (`x-distil-session`, `x-distil-bypass`, …); never sent upstream. */
export const DISTIL_HEADER_PREFIX = 'x-distil-';

const NONE: ReadonlySet<string> = new Set();

/** Every field the `Connection` header names (RFC 9110 §7.6.1): also hop-by-hop for this message. */
function namedByConnection(value: string | string[] | number | undefined): Set<string> {
  const named = new Set<string>();
  if (value === undefined) return named;
  for (const part of String(value).split(',')) {
    const name = part.trim().toLowerCase();
    if (name) named.add(name);
  }
  return named;
}

/** Options of `forwardableHeaders`. */
export interface ForwardOptions {
  /** Drop Content-Length as well (the body is rewritten or re-framed). Default false. */
  readonly dropFraming?: boolean;
  /** Drop `x-distil-*` fields (requests going upstream). Default false. */
  readonly dropDistil?: boolean;
  /** Drop these extra fields (lower-case). */
  readonly drop?: readonly string[];
}

/**
 * The end-to-end fields of a message, without hop-by-hop fields and `host` (the upstream connection sets
 * its own). Values are passed through as they came (credentials included, untouched and never logged).
 */
export function forwardableHeaders(
  headers: IncomingHttpHeaders | OutgoingHttpHeaders | Record<string, string | string[] | undefined>,
  options: ForwardOptions = {},
): Record<string, string | string[]> {
  // Runs twice per request (upstream headers, response headers): no Set is built unless a Connection
  // header names fields, and the few extra names are searched in their array.
  const connection = headers.connection as string | string[] | undefined;
  const connectionNamed = connection === undefined ? NONE : namedByConnection(connection);
  const extra = options.drop ?? [];
  const out: Record<string, string | string[]> = {};
  for (const rawName of Object.keys(headers)) {
    const value = headers[rawName];
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    if (name === 'host' || HOP_BY_HOP.has(name) || connectionNamed.has(name) || extra.includes(name))
      continue;
    if (options.dropFraming && FRAMING.has(name)) continue;
    if (options.dropDistil && name.startsWith(DISTIL_HEADER_PREFIX)) continue;
    out[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

/** One header value as a string (the first, when repeated); undefined when absent. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
