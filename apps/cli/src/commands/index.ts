import type { Command } from 'commander';
import { registerCertifyTrajectories } from './certify-trajectories.js';
import { registerCompress } from './compress.js';
import { registerConfigCheck } from './config-check.js';
import { registerDoctor } from './doctor.js';
import { registerExpand } from './expand.js';
import { registerFrontier } from './frontier.js';
import { registerLearn } from './learn.js';
import { registerMcp } from './mcp.js';
import { registerProxy } from './proxy.js';
import { registerPrune } from './prune.js';
import { registerSavings } from './savings.js';
import { registerSearch } from './search.js';
import { registerShadowStats } from './shadow-stats.js';
import { registerTemplates } from './templates.js';
import { registerTrain } from './train.js';
import { registerTrainTransformer } from './train-transformer.js';
import { registerValidate } from './validate.js';
import { registerWrap } from './wrap.js';

/** Every command the CLI offers; each file registers one command (or one command group). */
export const COMMANDS: readonly ((program: Command) => void)[] = [
  registerConfigCheck,
  registerCompress,
  registerExpand,
  registerProxy,
  registerSearch,
  registerSavings,
  registerTrain,
  registerTrainTransformer,
  registerPrune,
  registerFrontier,
  registerCertifyTrajectories,
  registerLearn,
  registerTemplates,
  registerMcp,
  registerShadowStats,
  registerWrap,
  registerDoctor,
  registerValidate,
];
