import type { ConversationView } from './conversation-view.js';

/** One function-tool call of a reply. */
export interface ToolCallSpec {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** Every call of a tool reply, in order: the first and any made beside it. */
export function callsOf(reply: Extract<ScriptedReply, { kind: 'tool' }>): readonly ToolCallSpec[] {
  return [{ name: reply.name, input: reply.input }, ...(reply.more ?? [])];
}

/** What the scripted model answers on one round, independent of the wire format. */
export type ScriptedReply =
  | {
      readonly kind: 'tool';
      readonly name: string;
      readonly input: Record<string, unknown>;
      /** Further calls made in the same reply (parallel tool use), after the first. */
      readonly more?: readonly ToolCallSpec[];
    }
  /** A freeform (custom) tool call, e.g. Codex's `apply_patch`, whose input is raw text. */
  | { readonly kind: 'custom_tool'; readonly name: string; readonly input: string }
  | {
      readonly kind: 'final';
      readonly text: string;
      /** Output tokens to bill instead of counting `text` (a replayed reply the provider billed so). */
      readonly outputTokens?: number;
    };

/** Bookkeeping the fake upstream adds to every reply: ids and a thought, as a reasoning model sends. */
export interface ReplyEnvelope {
  /** Unique per reply (used in message, tool-call and reasoning ids). */
  readonly serial: number;
  /** A short visible thought (Anthropic thinking block, OpenAI encrypted reasoning item). */
  readonly thought: string;
}

/** The request a scripted model answers, beyond what the view shows. */
export interface ScriptedRequest {
  /** The exchange the request serves (the `x-harness-exchange` header), or null. */
  readonly exchange: number | null;
  /** The request body as the upstream received it. */
  readonly body: unknown;
}

/**
 * A scripted model: reads a request, answers the next step. Stateless: everything comes from the request
 * (a replay also reads which exchange it serves).
 */
export type ScriptedModel = (
  view: ConversationView,
  request: ScriptedRequest,
) => ScriptedReply | Promise<ScriptedReply>;
