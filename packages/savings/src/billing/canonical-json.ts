/**
 * The semantic form of a prompt part, for deciding whether two requests share a cached prefix.
 *
 * A provider caches the prompt it renders from the parsed request, not the HTTP bytes: key order and
 * whitespace do not reach the model, a `cache_control` marker only says where to cache, and a string
 * `content` renders exactly like one text block. Claude Code itself relies on the last two (it moves its
 * breakpoint every turn and re-sends its mid-conversation system message as a string once the breakpoint
 * has left it), so a billing model that counted them as changes would see cache misses the provider
 * does not bill.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value));
}

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'cache_control') continue;
    out[key] = normalise((value as Record<string, unknown>)[key]);
  }
  return out;
}

/** Characters two strings share from their start. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
