import type { BlockInput, ContentKind, TrajectoryInput } from '../../../packages/contract/src/index.js';

/** A decision as the contract's input type accepts it. */
export type DecisionInput =
  | { readonly type: 'tool_call'; readonly tool: string; readonly arguments: Record<string, unknown> }
  | { readonly type: 'final'; readonly text: string };

/**
 * Builds an append-only trajectory turn by turn: blocks are added to the open turn, and a decision closes
 * it. Block ids must be unique across the trajectory, since a block is the same object in every later
 * context.
 */
export class TurnLog {
  private readonly turns: { blocks: BlockInput[]; decision: DecisionInput | null }[] = [];
  private open: BlockInput[] = [];
  private readonly ids = new Set<string>();

  /** Adds a block to the open turn. */
  add(block: BlockInput): this {
    if (this.ids.has(block.id)) throw new Error(`duplicate block id ${block.id}`);
    this.ids.add(block.id);
    this.open.push(block);
    return this;
  }

  /** The operator's system prompt (trusted). */
  system(text: string): this {
    return this.add({ id: 'system', role: 'system', kind: 'chat', text, trusted: true });
  }

  /** A user message (trusted: the operator typed it). */
  user(id: string, text: string): this {
    return this.add({ id, role: 'user', kind: 'chat', text, trusted: true });
  }

  /** A retrieved document placed in the context (untrusted). */
  doc(id: string, text: string): this {
    return this.add({ id, role: 'user', kind: 'doc', text, trusted: false });
  }

  /** The assistant's own text that accompanied its previous tool call. */
  note(id: string, text: string): this {
    return this.add({ id, role: 'assistant', kind: 'chat', text, trusted: false });
  }

  /** A tool result (untrusted). */
  tool(id: string, tool: string, kind: ContentKind, text: string): this {
    return this.add({ id, role: 'tool', kind, text, trusted: false, tool });
  }

  /** Closes the open turn with a tool call. */
  call(tool: string, args: Record<string, unknown>): this {
    return this.close({ type: 'tool_call', tool, arguments: args });
  }

  /** Closes the open turn with a final answer. */
  final(text: string): this {
    return this.close({ type: 'final', text });
  }

  private close(decision: DecisionInput): this {
    if (this.open.length === 0) throw new Error('a turn needs at least one new block before its decision');
    this.turns.push({ blocks: this.open, decision });
    this.open = [];
    return this;
  }

  /** The trajectory in the contract's input shape. */
  finish(id: string, source: string, outcome: 'pass' | 'fail' | null): TrajectoryInput {
    if (this.open.length > 0) throw new Error('blocks were added after the last decision');
    return { format: 'distil.trajectory/v1', id, source, turns: this.turns, outcome };
  }
}
