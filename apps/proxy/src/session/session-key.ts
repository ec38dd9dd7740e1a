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
  for (const part of root) {
    // a long text by its digest (tagged, so it cannot be mistaken for a short text's JSON)
    if (typeof part === 'string' && part.length >= LONG_ROOT_TEXT) hash.update('#').update(textDigest(part));
    else hash.update(JSON.stringify(part ?? null));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Root texts at least this long are hashed once and found again by the text itself. */
const LONG_ROOT_TEXT = 256;
/** Characters of long root texts the memo holds (a team's worth of system prompts); past it, it starts over. */
const MAX_DIGESTED_CHARS = 2 * 1024 * 1024;
const textDigests = new Map<string, string>();
let digestedChars = 0;

/**
 * The SHA-256 of a long root text, memoised. Every turn resends the same system prompt and first
 * message (tens of KB for Claude Code and Codex), and the request scan hands back the very string it
 * decoded a turn ago, whose hash V8 keeps: a lookup costs little where hashing the text again cost ~20 µs
 * of a warm turn.
 */
function textDigest(text: string): string {
  let digest = textDigests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('hex');
    if (digestedChars + text.length > MAX_DIGESTED_CHARS) {
      textDigests.clear();
      digestedChars = 0;
    }
    textDigests.set(text, digest);
    digestedChars += text.length;
  }
  return digest;
}
