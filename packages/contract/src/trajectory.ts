import { z } from 'zod';
import { Block } from './block.js';
import { Decision } from './decision.js';

/**
 * One step of an agent loop. Context is append-only: the context the agent saw at turn N is the blocks of
 * turns 0..N in order, which is what makes a cached prefix possible at all.
 */
export const Turn = z
  .object({
    /** Blocks added to the context in this turn. */
    blocks: z.array(Block),
    /** What the agent did after reading the context; null when the trajectory ends without one. */
    decision: Decision.nullable(),
  })
  .strict();
export type Turn = z.infer<typeof Turn>;

/** The outcome of a whole run, when the task has a check (tests pass or not). */
export const Outcome = z.enum(['pass', 'fail']);
export type Outcome = z.infer<typeof Outcome>;

/** A whole agent run in Distil's own format. */
export const Trajectory = z
  .object({
    format: z.literal('distil.trajectory/v1').default('distil.trajectory/v1'),
    id: z.string().min(1, 'a trajectory needs a non-empty id'),
    /** Where it came from: a generator, an importer, a recording proxy. */
    source: z.string().optional(),
    turns: z.array(Turn).min(1, 'a trajectory needs at least one turn'),
    outcome: Outcome.nullable().default(null),
  })
  .strict();
export type Trajectory = z.infer<typeof Trajectory>;
export type TrajectoryInput = z.input<typeof Trajectory>;
