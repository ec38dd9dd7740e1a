import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { headerValue } from '../http/hop-by-hop.js';

/** Whether a host name or address is the loopback interface (RFC 6890: 127.0.0.0/8 and ::1). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Raised when the proxy is asked to listen beyond loopback without an admin token. */
export class UnsafeBindError extends Error {
  constructor(host: string) {
    super(
      `refusing to listen on ${host} without an admin token: anyone who can reach it could read Distil's ` +
        'endpoints. Set proxy.adminToken (16+ characters) in the config, or bind 127.0.0.1.',
    );
    this.name = 'UnsafeBindError';
  }
}

/** Throws unless the host is loopback or an admin token is configured. */
export function checkBind(host: string, adminToken: string | undefined): void {
  if (!isLoopback(host) && !adminToken) throw new UnsafeBindError(host);
}

/** The header that carries the admin token (provider credentials use authorization / x-api-key). */
export const ADMIN_TOKEN_HEADER = 'x-distil-admin-token';

/**
 * Whether a request may use Distil's own (non-provider) endpoints. With an admin token configured, the
 * request must carry it (compared in constant time). Without one the proxy only listens on loopback, and
 * the Host header must name loopback too, so a web page cannot reach these endpoints by DNS rebinding.
 */
export function adminAllowed(req: IncomingMessage, adminToken: string | undefined): boolean {
  if (adminToken) {
    const given = Buffer.from(headerValue(req.headers, ADMIN_TOKEN_HEADER) ?? '');
    const expected = Buffer.from(adminToken);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  const host = headerValue(req.headers, 'host') ?? '';
  return isLoopback(host.replace(/:\d+$/, ''));
}
