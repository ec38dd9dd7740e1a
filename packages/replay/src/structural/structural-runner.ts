import type { Block } from '@distil/contract';
import type { Replayed, ReplayTurn, Runner } from '../runner.js';
import { decisionAtoms } from './decision-atoms.js';
import { VisibilityIndex } from './visibility.js';

/**
 * The structural runner: free, deterministic, no model call.
 *
 * Definition. For a turn with recorded decision d and full context R, the atoms A(d, R) are the tokens of
 * d that came from R: the tool name, and every token of the arguments (or final text) with a copied shape
 * — a path or a visible piece of one, an identifier with a digit, `_`, an inner `.`/`:`/`-`/`@` or inner
 * capitals, a number of three or more digits, a quoted string — that is visible in R as a whole token
 * (see decisionAtoms, visibleIn). On any context C it returns d when every atom is visible in C, and
 * "unreproducible" with the missing atoms otherwise.
 *
 * Why this is sound and not trivially true. "Came from" is judged against R, the context the agent
 * actually read, never against C: a token the agent copied from R must still be readable in C for the
 * decision to be reproducible, so dropping or folding the only block that showed `pg-ledger-0` or
 * `/var/lib/postgresql/data` breaks the replay, while a context that keeps every copied token supports it.
 * Tokens the agent composed (not in R) or plain words (written without reading) never decide anything.
 * Text folded behind a handle is not visible: this is decision-equivalence without recovery, the stricter
 * of the two.
 *
 * What it cannot see: influence that leaves no copied token (a rule "never restart the database" obeyed
 * by not restarting it). It certifies provenance, not reasoning; `--runner anthropic|openai` asks the model.
 * On R itself it always returns d, by construction.
 */
export class StructuralRunner implements Runner {
  readonly id = 'structural';
  readonly concurrency = 1;
  readonly basis = 'no copied token lost';
  /** Provenance of copied tokens is a heuristic, not a model's decision: its verdicts never certify. */
  readonly certifies = false;
  private readonly index = new VisibilityIndex();
  private readonly atoms = new WeakMap<ReplayTurn, readonly string[]>();

  /** The atoms of a turn's recorded decision (memoised per turn). */
  atomsOf(turn: ReplayTurn): readonly string[] {
    let atoms = this.atoms.get(turn);
    if (atoms === undefined) {
      atoms = decisionAtoms(turn.recorded, turn.reference, this.index);
      this.atoms.set(turn, atoms);
    }
    return atoms;
  }

  /** The atoms of the turn's decision that are not visible in `context`. */
  missing(context: readonly Block[], turn: ReplayTurn): string[] {
    return this.atomsOf(turn).filter((atom) => !this.index.visibleInContext(context, atom));
  }

  /** The recorded decision when every atom is visible in `context`, else the atoms that are not. */
  async decide(context: readonly Block[], turn: ReplayTurn): Promise<Replayed> {
    const missing = this.missing(context, turn);
    return missing.length === 0
      ? { kind: 'decision', decision: turn.recorded }
      : { kind: 'unreproducible', missing };
  }
}
