import { countTokens } from '@distil/core';
import type { BilledPrompt, UpstreamCall } from '@distil/savings';
import { commonPrefixLength, sectionAt, sharedBlocks } from '@distil/savings';

/** Prompt tokens two billed calls share from the start, and the body part where they first differ. */
export function sharedPrefix(a: BilledPrompt, b: BilledPrompt): { tokens: number; divergesAt: string } {
  if (a.api === 'messages' && b.api === 'messages') {
    const shared = sharedBlocks(a.prompt, b.prompt);
    const before = a.prompt.blocks[shared]?.label ?? '(end)';
    const after = b.prompt.blocks[shared]?.label ?? '(end)';
    return {
      tokens: a.prompt.prefixTokens[shared]!,
      divergesAt: before === after ? before : `${before} -> ${after}`,
    };
  }
  if (a.api === 'responses' && b.api === 'responses') {
    const shared = commonPrefixLength(a.prompt.text, b.prompt.text);
    return { tokens: countTokens(a.prompt.text.slice(0, shared)), divergesAt: sectionAt(b.prompt, shared) };
  }
  return { tokens: 0, divergesAt: 'another API' };
}

/** The call a call should extend: the previous round of its exchange, or the previous exchange's first call. */
export interface CallWithParent {
  readonly call: UpstreamCall;
  readonly parent: UpstreamCall | null;
}

/**
 * Where a call breaks the cached prefix, or null when it does not: it breaks it when it shares less with
 * the call it should extend than that call left in the cache. An expand continuation should extend the
 * round before it; an agent's next request should extend the first call of its previous request (what the
 * agent itself re-sends). Direct, the agent's own changes show here; through Distil, the proxy's.
 */
export function prefixBreak({ call, parent }: CallWithParent): string | null {
  if (!parent?.billed || !call.billed) return null;
  const shared = sharedPrefix(parent.billed, call.billed);
  if (shared.tokens >= parent.cachedTokens) return null;
  return `shares ${shared.tokens} of ${parent.cachedTokens} cached tokens; first differs at ${shared.divergesAt}`;
}
