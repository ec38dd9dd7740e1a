import { createHash } from 'node:crypto';
import { countTokens } from '@distil/core';

/**
 * How an assistant message the client saw really went upstream. The client's copy has the distil calls
 * removed (and, after a continuation, several upstream replies joined into one); on the next turn the
 * proxy puts the real exchange back, so the model sees the expansions it asked for (sticky: they stay in
 * every later turn, never compressed) and the provider's cached prefix matches what it saw before.
 */
export interface Splice {
  /** Messages that replace the client's assistant message, in order (the last is an assistant message). */
  readonly replacement: readonly unknown[];
  /**
   * Distil results the last replacement message still needs. They go in front of the client's own tool
   * results (Anthropic: the next user message; OpenAI: tool messages right after the assistant message).
   */
  readonly pending: readonly unknown[];
  /**
   * For item lists (the Responses API without server-side storage): the ids of the items the client saw,
   * which must follow one another in its input for the splice to apply.
   */
  readonly visibleIds?: readonly string[];
}

/** Most splices one session remembers; the oldest is forgotten first. */
const MAX_SPLICES = 256;

/** The splices of one session, keyed by a fingerprint of the assistant message the client saw. */
export class SpliceMemory {
  readonly #splices = new Map<string, Splice>();
  readonly #tokens = new WeakMap<object, number>();
  #appliedTokens = 0;

  /** Starts counting what the next request's splices put back (see applied). */
  beginRequest(): void {
    this.#appliedTokens = 0;
  }

  /**
   * Records that a splice (or a list of owed distil results) went back into the request being rewritten.
   * Its tokens are content the client never sent — the expansions the model asked for, sticky from then
   * on — so the ledger takes them out of the uncompressed estimate. The count covers the whole spliced
   * messages, the model's own words beside its distil calls included: an estimate that errs toward
   * claiming less saved.
   */
  applied(content: Splice | readonly unknown[]): void {
    let tokens = this.#tokens.get(content);
    if (tokens === undefined) {
      const parts = Array.isArray(content)
        ? [content]
        : [(content as Splice).replacement, (content as Splice).pending];
      tokens = countTokens(JSON.stringify(parts));
      this.#tokens.set(content, tokens);
    }
    this.#appliedTokens += tokens;
  }

  /** Tokens put back since beginRequest (o200k estimate). */
  get appliedTokens(): number {
    return this.#appliedTokens;
  }

  /** Records a splice for the client-visible message with this fingerprint. */
  set(fingerprint: string, splice: Splice): void {
    this.#splices.delete(fingerprint);
    this.#splices.set(fingerprint, splice);
    if (this.#splices.size > MAX_SPLICES) {
      const oldest = this.#splices.keys().next().value;
      if (oldest !== undefined) this.#splices.delete(oldest);
    }
  }

  /** The splice for a fingerprint, if any. */
  get(fingerprint: string): Splice | undefined {
    return this.#splices.get(fingerprint);
  }

  /** Whether any splice is remembered (lets a request skip fingerprinting entirely). */
  get size(): number {
    return this.#splices.size;
  }
}

/**
 * A fingerprint of an assistant message from what a client keeps of it: its tool-call ids when it made
 * calls (unique and never edited), else its text. Clients drop or reorder other fields freely.
 */
export function messageFingerprint(toolCallIds: readonly string[], texts: readonly string[]): string | null {
  const hash = createHash('sha256');
  if (toolCallIds.length > 0) hash.update('calls\0').update(toolCallIds.join('\0'));
  else if (texts.some((text) => text.length > 0)) hash.update('text\0').update(texts.join('\0'));
  else return null;
  return hash.digest('hex').slice(0, 32);
}
