import type { KeepContext } from '@distil/contract';

/** The agent's latest trusted texts a keep model is given: enough for what it is doing now. */
const RECENT_TEXTS = 32;
/** … and at most this many characters of them, newest kept first (a pasted file can be huge). */
const RECENT_CHARS = 64 * 1024;

/**
 * The keep model's view of a request, from its trusted texts in order (user text, the agent's text and
 * call inputs): the first is the task as the user stated it, the latest others what the agent was just
 * doing. The call that produced each output is added per block (see keepContextFor).
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

/** `base` for one tool output: with the input of the call that produced it, when the request holds it. */
export function keepContextFor(
  base: KeepContext,
  callId: string | undefined,
  callInputs: ReadonlyMap<string, string>,
): KeepContext {
  const input = callId === undefined ? undefined : callInputs.get(callId);
  return input === undefined ? base : { ...base, input };
}
