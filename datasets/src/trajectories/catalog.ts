import type { TrajectoryInput } from '../../../packages/contract/src/index.js';
import type { Rng } from '../prng.js';
import { ciFailureTriage } from './ci-failure-triage.js';
import { codingReadEditReread } from './coding-read-edit-reread.js';
import { grepAndFix } from './grep-and-fix.js';
import { jsonApiExploration } from './json-api-exploration.js';
import { sreDiskIncident } from './sre-disk-incident.js';

/** A trajectory builder: its id (the file name) and how to build it from a random stream. */
export interface TrajectoryBuilder {
  readonly id: string;
  readonly build: (rng: Rng) => TrajectoryInput;
}

/** Every bundled trajectory. */
export const TRAJECTORIES: readonly TrajectoryBuilder[] = Object.freeze([
  sreDiskIncident,
  codingReadEditReread,
  ciFailureTriage,
  grepAndFix,
  jsonApiExploration,
]);
