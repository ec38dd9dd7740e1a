import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { parseOrThrow } from '@distil/contract';
import { distilHome } from '@distil/core';
import { readShadowStats, type SavingsTotals, startProxy, wilsonInterval } from '@distil/proxy';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config-file.js';
import { count, percent } from '../replay-flags.js';
import { formatTable } from '../table.js';

interface WrapFlags {
  config?: string;
  port?: string;
  anthropicUpstream?: string;
  openaiUpstream?: string;
  shadow?: boolean;
  json?: boolean;
}

const Url = z.string().regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL');
const Flags = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(0),
  anthropicUpstream: Url.optional(),
  openaiUpstream: Url.optional(),
});

/** What a wrapped run saved, as printed (and as `--json` gives it). */
export interface WrapSummary {
  readonly command: string;
  readonly exitCode: number;
  readonly proxy: string;
  readonly totals: SavingsTotals;
  readonly cacheHitRate: number | null;
}

const usd = (n: number): string => `$${n.toFixed(4)}`;

/** The summary table a person reads once the command has exited. */
export function renderWrapSummary(summary: WrapSummary): string {
  const t = summary.totals;
  const priced = t.requests - t.unpricedRequests;
  const rows: (string | number)[][] = [
    ['requests', count(t.requests)],
    ['tokens removed', count(t.savedTokens)],
    ['expands answered', count(t.expands)],
    ['cache-hit rate', summary.cacheHitRate === null ? '—' : percent(summary.cacheHitRate)],
    ['billed', priced > 0 ? usd(t.actualUsd) : '—'],
    ['uncompressed estimate', priced > 0 ? usd(t.uncompressedUsd) : '—'],
    ['saved', priced > 0 ? usd(t.savedUsd) : '—'],
  ];
  let out = `distil wrap: \`${summary.command}\` exited with ${summary.exitCode}; through ${summary.proxy}:\n`;
  out += formatTable(['', 'this run'], rows);
  if (t.unpricedRequests > 0)
    out += `${count(t.unpricedRequests)} request(s) of unpriced models are left out of the dollars.\n`;
  return out;
}

/** The exit status a shell gives a child that ended by `signal` (128 + its number). */
function signalStatus(signal: NodeJS.Signals | null): number {
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

/**
 * `distil wrap -- <command…>`: a proxy on a free loopback port for the lifetime of one command, which
 * runs with ANTHROPIC_BASE_URL and OPENAI_BASE_URL pointing at it. When the command exits the proxy stops,
 * what it saved is printed on stderr (the command's own stdout stays clean), and distil exits with the
 * command's status.
 */
export function registerWrap(program: Command): void {
  program
    .command('wrap')
    .description('run a command through a temporary proxy and print what it saved: distil wrap -- claude …')
    .argument('<command...>', 'the command and its arguments (put them after --)')
    .option('--port <port>', 'port of the proxy (default: a free one)')
    .option('--anthropic-upstream <url>', 'Anthropic API origin (default: proxy.anthropicUpstream)')
    .option('--openai-upstream <url>', 'OpenAI API origin (default: proxy.openaiUpstream)')
    .option(
      '--no-shadow',
      'do not shadow-sample requests (default: proxy.shadowSampleRate of them, off unless configured)',
    )
    .option('--json', 'print the summary as JSON (on stderr)')
    .action(async (command: string[], _opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<WrapFlags>();
      const { config } = loadConfig(flags.config);
      const given = parseOrThrow(
        Flags,
        {
          port: flags.port,
          anthropicUpstream: flags.anthropicUpstream,
          openaiUpstream: flags.openaiUpstream,
        },
        'distil wrap flags',
      );
      const proxy = await startProxy({
        config,
        host: '127.0.0.1',
        port: given.port,
        ...(given.anthropicUpstream !== undefined && { anthropicUpstream: given.anthropicUpstream }),
        ...(given.openaiUpstream !== undefined && { openaiUpstream: given.openaiUpstream }),
        shadow: flags.shadow !== false,
        log: (line) => process.stderr.write(`distil wrap: ${line}\n`),
      });
      let exitCode: number;
      try {
        exitCode = await run(command, {
          ...process.env,
          ANTHROPIC_BASE_URL: proxy.url,
          OPENAI_BASE_URL: `${proxy.url}/v1`,
        });
      } finally {
        await proxy.close();
      }
      const totals = proxy.savings();
      const input = totals.billed.input + totals.billed.cacheWrite + totals.billed.cacheRead;
      const summary: WrapSummary = {
        command: command.join(' '),
        exitCode,
        proxy: proxy.url,
        totals,
        cacheHitRate: input > 0 ? totals.billed.cacheRead / input : null,
      };
      if (flags.json) process.stderr.write(`${JSON.stringify(summary)}\n`);
      else {
        process.stderr.write(renderWrapSummary(summary));
        const shadow = readShadowStats(distilHome());
        if (flags.shadow !== false && shadow.compared > 0) {
          const i = wilsonInterval(shadow.diverged, shadow.compared);
          process.stderr.write(
            `shadow mode, all runs so far: ${percent(i.rate)} of ${count(shadow.compared)} sampled decisions diverged (95% ${percent(i.low)}–${percent(i.high)}); see distil shadow-stats\n`,
          );
        }
      }
      process.exitCode = exitCode;
    });
}

/** Runs the command with the terminal attached; Ctrl-C and SIGTERM go to it, and its status comes back. */
function run(command: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      done();
      reject(
        error.code === 'ENOENT'
          ? new Error(`cannot run ${file}: command not found`)
          : new Error(`cannot run ${file}: ${error.message}`),
      );
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(code ?? signalStatus(signal));
    });
  });
}
