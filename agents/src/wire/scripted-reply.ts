/** What the scripted model answers on one round, independent of the wire format. */
export type ScriptedReply =
  | { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown> }
  /** A freeform (custom) tool call, e.g. Codex's `apply_patch`, whose input is raw text. */
  | { readonly kind: 'custom_tool'; readonly name: string; readonly input: string }
  | { readonly kind: 'final'; readonly text: string };

/** Bookkeeping the fake upstream adds to every reply: ids and a thought, as a reasoning model sends. */
export interface ReplyEnvelope {
  /** Unique per reply (used in message, tool-call and reasoning ids). */
  readonly serial: number;
  /** A short visible thought (Anthropic thinking block, OpenAI encrypted reasoning item). */
  readonly thought: string;
}
