import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../http/hop-by-hop.js';

// Credentials are mixed into the key only through an HMAC under a key that lives and dies with this
// process: two API keys never share a session, and nothing derived from a key outlives the process or can
// be turned back into it.
const PROCESS_SECRET = randomBytes(32);

/** Tags of the credentials seen last: an agent sends the same key on every turn. */
const recentTags = new Map<string, string>();
/** A team's worth of keys; past it the memo starts over (a tag is cheap to compute again). */
const MAX_RECENT_TAGS = 64;

/**
 * Which credential header a request carries, as an opaque per-process tag. Memoised: an HMAC per request
 * (building the keyed hash object is most of its cost) was ~2% of a warm request's CPU here. The memo
 * holds only what the process already holds while it serves those keys, and dies with it.
 */
function credentialTag(headers: IncomingHttpHeaders): string {
  const credential = headerValue(headers, 'x-api-key') ?? headerValue(headers, 'authorization') ?? '';
  let tag = recentTags.get(credential);
  if (tag === undefined) {
    tag = createHmac('sha256', PROCESS_SECRET).update(credential).digest('hex').slice(0, 16);
    if (recentTags.size >= MAX_RECENT_TAGS) recentTags.clear();
    recentTags.set(credential, tag);
  }
  return tag;
}

/**
 * The session a request belongs to: the `x-distil-session` header when the client names one, else the
 * conversation's root — its dialect, system prompt and first message, which every later turn of the same
 * conversation repeats verbatim. Either way scoped to the caller's credential.
 */
export function sessionKey(headers: IncomingHttpHeaders, dialect: string, root: readonly unknown[]): string {
  const named = headerValue(headers, 'x-distil-session');
  const tag = credentialTag(headers);
  // A named session's key is short already (a header value): it is used as it is, prefixed so it can
  // never equal a digest; a conversation's root can be a long system prompt, so it is hashed.
  if (named) return `named\0${dialect}\0${tag}\0${named}`;
  const hash = createHash('sha256').update(dialect).update('\0').update(tag).update('\0');
  for (const part of root) hash.update(JSON.stringify(part ?? null)).update('\0');
  return hash.digest('hex');
}
