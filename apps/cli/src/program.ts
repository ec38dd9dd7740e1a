import { Command } from 'commander';
import { COMMANDS, type CommandEntry } from './commands/index.js';
import { VERSION } from './version.js';

/** Global options that take a value: the word after them is that value, not a command name. */
const VALUE_OPTIONS = new Set(['--config']);

/** The command word of a command line (arguments after `node bin`), if it has one. */
function commandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * The commands a command line needs: the one it names; none for a bare `--version`; every command for
 * help, a mistyped name (so the error can suggest the right one), or no command at all.
 */
export function commandsFor(args: readonly string[]): readonly CommandEntry[] {
  const word = commandWord(args);
  if (word === undefined) {
    const versionOnly = args.length > 0 && args.every((a) => a === '-v' || a === '--version');
    return versionOnly ? [] : COMMANDS;
  }
  const named = COMMANDS.filter((entry) => entry.name === word);
  return named.length > 0 ? named : COMMANDS;
}

/**
 * Builds the `distil` command line. Given `argv` (as `process.argv`), it loads only the commands that
 * line needs, which keeps a start from loading every package; without it, every command is registered.
 */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('distil')
    .description('Make LLM coding agents cheaper without changing what they decide.')
    .version(VERSION, '-v, --version')
    .option('--config <file>', 'config file (default: ./distil.config.json)')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  const entries = argv === undefined ? COMMANDS : commandsFor(argv.slice(2));
  const registers = await Promise.all(entries.map((entry) => entry.load()));
  for (const register of registers) register(program);
  return program;
}
