import { expand, openRestoreStore } from '@distil/core';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';

/** Writes all of `bytes` to stdout and resolves once they are handed to the OS (binary-safe). */
function writeStdout(bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * `distil expand HANDLE`: the original bytes behind a handle on stdout, byte for byte and nothing else.
 * An unknown, forged or malformed handle exits 1 with `distil: unknown handle …` on stderr.
 */
export function registerExpand(program: Command): void {
  program
    .command('expand')
    .description('print the original bytes behind a handle (from the configured restore store)')
    .argument('<handle>', 'a handle from a fold stub, e.g. dh_0123456789ab')
    .action(async (handle: string, _opts: unknown, cmd: Command) => {
      const { config } = loadConfig(cmd.optsWithGlobals<{ config?: string }>().config);
      // a reader: eviction, which lists every record, is left to the proxy and `distil compress`
      const store = await openRestoreStore(config.restoreStore, undefined, { sweep: false });
      try {
        await writeStdout(await expand(store, handle));
      } finally {
        await store.close();
      }
    });
}
