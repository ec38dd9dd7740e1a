import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import { VERSION } from './version.js';

/** Builds the `distil` command line with every registered command. */
export function buildProgram(): Command {
  const program = new Command('distil')
    .description('Make LLM coding agents cheaper without changing what they decide.')
    .version(VERSION, '-v, --version')
    .option('--config <file>', 'config file (default: ./distil.config.json)')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  for (const register of COMMANDS) register(program);
  return program;
}
