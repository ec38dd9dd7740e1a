import { loadKeepModel } from '@distil/codec';
import { openRestoreStore } from '@distil/core';
import { serveMcpStdio } from '@distil/proxy/mcp';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import { VERSION } from '../version.js';

/**
 * `distil mcp`: Distil's MCP server on stdio — distil_expand, distil_search, distil_compress and
 * distil_savings over the configured restore store (the one the proxy uses), for agents that speak MCP.
 * stdout carries the protocol; every message for a person goes to stderr.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve distil_expand, distil_search, distil_compress and distil_savings over MCP (stdio)')
    .action(async (_opts: unknown, cmd: Command) => {
      const { config } = loadConfig(cmd.optsWithGlobals<{ config?: string }>().config);
      const log = (message: string): void => {
        process.stderr.write(`distil mcp: ${message}\n`);
      };
      const keepModel = await loadKeepModel({ ...config.keepModel, fallback: 'salience' }, log);
      const store = await openRestoreStore(config.restoreStore);
      try {
        await serveMcpStdio({ store, keepModel, config, version: VERSION });
      } finally {
        await store.close();
      }
    });
}
