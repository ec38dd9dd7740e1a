import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../http/hop-by-hop.js';

// Credentials are mixed into the key only through an HMAC under a key that lives and dies with this
// process: two API keys never share a session, and nothing derived from a key outlives the process or can
// be turned back into it.
const PROCESS_SECRET = randomBytes(32);

/** Which credential header a request carries, as an opaque per-process tag. */
function credentialTag(headers: IncomingHttpHeaders): string {
  const credential = headerValue(headers, 'x-api-key') ?? headerValue(headers, 'authorization') ?? '';
  return createHmac('sha256', PROCESS_SECRET).update(credential).digest('hex').slice(0, 16);
}

/**
 * The session a request belongs to: the `x-distil-session` header when the client names one, else the
 * conversation's root — its dialect, system prompt and first message, which every later turn of the same
 * conversation repeats verbatim. Either way scoped to the caller's credential.
 */
export function sessionKey(headers: IncomingHttpHeaders, dialect: string, root: readonly unknown[]): string {
  const named = headerValue(headers, 'x-distil-session');
  const hash = createHash('sha256').update(dialect).update('\0').update(credentialTag(headers)).update('\0');
  if (named) hash.update('named\0').update(named);
  else for (const part of root) hash.update(JSON.stringify(part ?? null)).update('\0');
  return hash.digest('hex');
}
