import { createHash } from 'node:crypto';

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
