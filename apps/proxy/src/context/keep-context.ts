import type { KeepContext } from '@distil/contract';

/** The agent's latest trusted texts a keep model is given: enough for what it is doing now. */
const RECENT_TEXTS = 32;
/** … and at most this many characters of them, newest kept first (a pasted file can be huge). */
const RECENT_CHARS = 64 * 1024;

/**
 * The keep model's view of a request, from its trusted texts in order (user text, the agent's text and
 * call inputs): the first is the task as the user stated it, the latest others what the agent was just
 * doing. Which call produced which tool output is not tracked here, so `input` stays unset; the call's
 * input is the newest of `recent` whenever one call was made.
 */
export function keepContextOf(trustedTexts: readonly string[]): KeepContext {
  if (trustedTexts.length === 0) return {};
  const recent: string[] = [];
  let chars = 0;
  for (let i = trustedTexts.length - 1; i >= 1 && recent.length < RECENT_TEXTS; i--) {
    const text = trustedTexts[i]!;
    if (chars + text.length > RECENT_CHARS) break;
    chars += text.length;
    recent.push(text);
  }
  return { task: trustedTexts[0]!, recent: recent.reverse() };
}
