import { once } from 'node:events';
import { parseOrThrow } from '@distil/contract';
import { startProxy } from '@distil/proxy';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config-file.js';

interface ProxyFlags {
  config?: string;
  port?: string;
  host?: string;
  anthropicUpstream?: string;
  openaiUpstream?: string;
  compressWorkers?: string;
}

const Flags = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  anthropicUpstream: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL')
    .optional(),
  openaiUpstream: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL')
    .optional(),
  compressWorkers: z.coerce.number().int().min(0).max(256).optional(),
});

/** What to tell a person once the proxy listens: where, and how to point each client at it. */
function banner(url: string, anthropic: string, openai: string): string {
  return [
    `distil proxy listening on ${url}`,
    '',
    '  Claude Code, Anthropic SDKs:  export ANTHROPIC_BASE_URL=' + url,
    '  OpenAI SDKs:                  export OPENAI_BASE_URL=' + url + '/v1',
    '  Codex:                        export OPENAI_BASE_URL=' +
      url +
      '/v1   (or a model_providers entry, see README)',
    '',
    `  upstreams: anthropic → ${anthropic}, openai → ${openai}`,
    '  Ctrl-C stops it.',
    '',
  ].join('\n');
}

/**
 * `distil proxy [--port 8788] [--host H] [--anthropic-upstream URL] [--openai-upstream URL]
 * [--compress-workers N]`: runs the
 * proxy in the foreground until SIGINT or SIGTERM, then closes it cleanly and prints what it saved.
 */
export function registerProxy(program: Command): void {
  program
    .command('proxy')
    .description('run the drop-in Anthropic/OpenAI endpoint that compresses context in flight')
    .option('--port <port>', 'port to listen on (default: proxy.port, 8788; 0 picks a free one)')
    .option(
      '--host <host>',
      'interface to bind (default: proxy.host, 127.0.0.1; others need proxy.adminToken)',
    )
    .option('--anthropic-upstream <url>', 'Anthropic API origin (default: proxy.anthropicUpstream)')
    .option('--openai-upstream <url>', 'OpenAI API origin (default: proxy.openaiUpstream)')
    .option(
      '--compress-workers <n>',
      'most worker threads compressing large new tool outputs (default: proxy.compressWorkers, cores - 1; 0: none)',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<ProxyFlags>();
      const { config } = loadConfig(flags.config);
      const given = parseOrThrow(
        Flags,
        {
          port: flags.port,
          host: flags.host,
          anthropicUpstream: flags.anthropicUpstream,
          openaiUpstream: flags.openaiUpstream,
          compressWorkers: flags.compressWorkers,
        },
        'distil proxy flags',
      );
      const proxy = await startProxy({
        config,
        // shadow mode samples config.proxy.shadowSampleRate of the requests (0 turns it off)
        shadow: true,
        ...(given.port !== undefined && { port: given.port }),
        ...(given.host !== undefined && { host: given.host }),
        ...(given.anthropicUpstream !== undefined && { anthropicUpstream: given.anthropicUpstream }),
        ...(given.openaiUpstream !== undefined && { openaiUpstream: given.openaiUpstream }),
        ...(given.compressWorkers !== undefined && { compressWorkers: given.compressWorkers }),
      });
      process.stdout.write(
        banner(
          proxy.url,
          given.anthropicUpstream ?? config.proxy.anthropicUpstream,
          given.openaiUpstream ?? config.proxy.openaiUpstream,
        ),
      );
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      await proxy.close();
      const totals = proxy.savings();
      const dollars = totals.unpricedRequests === totals.requests ? 'n/a' : `$${totals.savedUsd.toFixed(4)}`;
      process.stdout.write(
        `distil proxy stopped: ${totals.requests} requests, ${totals.savedTokens} tokens removed, ` +
          `${totals.expands} expands answered, ${dollars} saved (from billed usage)\n`,
      );
    });
}
