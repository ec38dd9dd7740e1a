import type { Block, ContentKind, Decision, Role, Trajectory, Turn } from '@distil/contract';
import { kindForImportedText } from './block-kind.js';

/** A block as an importer sees it, before it gets an id and a kind. */
export interface ImportedText {
  readonly role: Role;
  readonly text: string;
  /** Tool that produced a tool result. */
  readonly tool?: string;
  /** Overrides the default trust rule (system and user text trusted, everything else untrusted). */
  readonly trusted?: boolean;
  /** Overrides the kind detected from role and text. */
  readonly kind?: ContentKind;
}

/**
 * Accumulates an agent run into append-only turns: blocks pile up until the agent decides, then the
 * decision closes the turn. The assistant message that carried a decision is context for the next turn,
 * so importers add it after calling `decide`.
 */
export class TurnBuilder {
  private readonly turns: Turn[] = [];
  private pending: Block[] = [];
  private nextId = 0;

  /** Adds one block of context; empty text is skipped (it would cost nothing and say nothing). */
  add(input: ImportedText): void {
    if (input.text.length === 0) return;
    const block: Block = {
      id: `b${this.nextId++}`,
      role: input.role,
      kind: input.kind ?? kindForImportedText(input.role, input.text),
      text: input.text,
      trusted: input.trusted ?? (input.role === 'system' || input.role === 'user'),
      ...(input.tool ? { tool: input.tool } : {}),
    };
    this.pending.push(block);
  }

  /** Closes the current turn with the agent's decision. */
  decide(decision: Decision): void {
    this.turns.push({ blocks: this.pending, decision });
    this.pending = [];
  }

  /**
   * The trajectory. A run log ends with the agent's last action; blocks after it were never sent to the
   * model, so they are dropped unless `keepPending` (a request body: the pending context is the request).
   */
  build(id: string, source: string, keepPending: boolean): Trajectory {
    const turns = [...this.turns];
    if (keepPending && this.pending.length > 0) turns.push({ blocks: this.pending, decision: null });
    if (turns.length === 0 && this.pending.length > 0) turns.push({ blocks: this.pending, decision: null });
    return { format: 'distil.trajectory/v1', id, source, turns, outcome: null };
  }
}

/** A tool-call decision from a tool name and arguments given as a JSON string or an object. */
export function toolCallDecision(tool: string, args: unknown): Decision {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { type: 'tool_call', tool, arguments: { input: args } };
    }
  }
  if (value === undefined || value === null) return { type: 'tool_call', tool, arguments: {} };
  if (typeof value === 'object' && !Array.isArray(value)) {
    return { type: 'tool_call', tool, arguments: value as Record<string, unknown> };
  }
  return { type: 'tool_call', tool, arguments: { input: value } };
}
