import type { Command } from 'commander';

/** Adds one command (or one command group) to the program. */
export type RegisterCommand = (program: Command) => void;

/**
 * A command by the name a user types, and how to load it. Loading is deferred because each command
 * file pulls in its own packages (the pipeline, the proxy, the MCP SDK, replay): a run loads only the
 * command it runs, so `distil expand` does not pay for the proxy and `distil --version` pays for nothing.
 */
export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<RegisterCommand>;
}

/** Every command the CLI offers; each file registers one command (or one command group). */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'config', load: async () => (await import('./config-check.js')).registerConfigCheck },
  { name: 'compress', load: async () => (await import('./compress.js')).registerCompress },
  { name: 'expand', load: async () => (await import('./expand.js')).registerExpand },
  { name: 'proxy', load: async () => (await import('./proxy.js')).registerProxy },
  { name: 'search', load: async () => (await import('./search.js')).registerSearch },
  { name: 'savings', load: async () => (await import('./savings.js')).registerSavings },
  { name: 'train', load: async () => (await import('./train.js')).registerTrain },
  {
    name: 'train-transformer',
    load: async () => (await import('./train-transformer.js')).registerTrainTransformer,
  },
  { name: 'prune', load: async () => (await import('./prune.js')).registerPrune },
  { name: 'frontier', load: async () => (await import('./frontier.js')).registerFrontier },
  {
    name: 'certify-trajectories',
    load: async () => (await import('./certify-trajectories.js')).registerCertifyTrajectories,
  },
  { name: 'learn', load: async () => (await import('./learn.js')).registerLearn },
  { name: 'templates', load: async () => (await import('./templates.js')).registerTemplates },
  { name: 'mcp', load: async () => (await import('./mcp.js')).registerMcp },
  { name: 'shadow-stats', load: async () => (await import('./shadow-stats.js')).registerShadowStats },
  { name: 'wrap', load: async () => (await import('./wrap.js')).registerWrap },
  { name: 'doctor', load: async () => (await import('./doctor.js')).registerDoctor },
  { name: 'validate', load: async () => (await import('./validate.js')).registerValidate },
];
