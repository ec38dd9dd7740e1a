import type { TrajectoryInput } from '../../../packages/contract/src/index.js';
import type { Rng } from '../prng.js';

/** A trajectory builder: its id (the file name) and how to build it from a random stream. */
export interface TrajectoryBuilder {
  readonly id: string;
  readonly build: (rng: Rng) => TrajectoryInput;
}

/** Every bundled trajectory. */
export const TRAJECTORIES: readonly TrajectoryBuilder[] = Object.freeze([]);
