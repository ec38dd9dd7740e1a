import type { ForwardedText } from '@distil/core';
import type { ContextPath, Conversation, ConversationRequest, ForwardedRequest } from './context-path.js';

/**
 * Where the load-bearing line ended up (spec/threat-model.txt, the disjunction Distil asserts):
 * - `kept`: it survives verbatim in what was forwarded;
 * - `folded`: it was folded, a handle Distil issued returns it, and the stub declares the elision;
 * - `lost`: neither — the invariant is broken.
 */
export type Branch = 'kept' | 'folded' | 'lost';

/** One check of a case: an invariant or a case's own assertion. */
export interface CaseCheck {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'n/a';
  readonly detail?: string;
}

/** What a case's own checks are given, after its conversation ran. */
export interface CaseRun {
  readonly path: ContextPath;
  /** The case's conversation, after all its requests. */
  readonly conversation: Conversation;
  /** Every request sent, and what was forwarded for each. */
  readonly requests: readonly ConversationRequest[];
  readonly forwarded: readonly ForwardedRequest[];
  /** The last request's tool results, read against their originals. */
  readonly reads: readonly ForwardedText[];
  /** Sends requests in a fresh conversation (a new session) and returns what the last one forwarded. */
  sendFresh(requests: readonly ConversationRequest[]): Promise<ForwardedRequest>;
}

/** A hostile case: a conversation carrying the line an attacker wants discarded. */
export interface HostileCase {
  readonly name: string;
  /** The attack, in a sentence. */
  readonly threat: string;
  /**
   * The conversation, one request at a time: given what was forwarded so far, the next request (the
   * whole context, append-only), or null when done. Later requests may use what Distil sent (a handle).
   */
  readonly next: (forwarded: readonly ForwardedRequest[]) => ConversationRequest | null;
  /** The load-bearing line (a whole line, unique in its block) and which tool result of the last request holds it. */
  readonly target: { readonly tool: number; readonly line: string };
  /** The branch the outcome is pinned to: a change in either direction fails the case. */
  readonly pinned?: Branch;
  /** The savings (fraction) of the target's block the case is pinned to. */
  readonly pinnedSavings?: number;
  /** A cost the case demonstrates and the threat model states rather than fixes. */
  readonly cost?: string;
  /** Why per-block independence does not apply, when it does not. */
  readonly notIndependent?: string;
  /** The case's own checks. */
  readonly checks?: (run: CaseRun) => Promise<CaseCheck[]>;
}

/** A conversation of fixed requests, sent in order. */
export function inOrder(...requests: ConversationRequest[]): HostileCase['next'] {
  return (forwarded) => requests[forwarded.length] ?? null;
}

/** A passing or failing check. */
export function check(name: string, ok: boolean, detail?: string): CaseCheck {
  return { name, status: ok ? 'pass' : 'fail', ...(detail !== undefined ? { detail } : {}) };
}

/** `count` lines of ordinary build noise, numbered from `from`. */
export function noise(count: number, tag: string, from = 0): string[] {
  return Array.from(
    { length: count },
    (_, k) => `[INFO] ${tag} step ${from + k}: compiled module_${from + k}.ts in ${((from + k) * 7) % 50} ms`,
  );
}

/** Lines joined with `\n`, newline-terminated. */
export function block(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}
