import { ValidationError } from '@distil/contract';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import { missingKeepModelFiles } from '../keep-model-files.js';

/**
 * `distil config check [FILE]`: prints the resolved config, or every error with its field path — a
 * keep-model file or folder that does not exist included.
 */
export function registerConfigCheck(program: Command): void {
  const config = program.command('config').description('inspect the Distil configuration');
  config
    .command('check')
    .description('validate a config file and print the resolved config (defaults filled in)')
    .argument('[file]', 'config file (default: --config, else ./distil.config.json)')
    .action((file: string | undefined, _opts: unknown, cmd: Command) => {
      const loaded = loadConfig(file ?? cmd.optsWithGlobals<{ config?: string }>().config);
      const missing = missingKeepModelFiles(loaded.config);
      if (missing.length > 0) throw new ValidationError('config', missing);
      process.stderr.write(`config: ${loaded.source ?? 'defaults (no distil.config.json here)'}\n`);
      process.stdout.write(`${JSON.stringify(loaded.config, null, 2)}\n`);
    });
}
