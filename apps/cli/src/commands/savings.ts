import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKeepModel } from '@distil/codec';
import type { Trajectory } from '@distil/contract';
import {
  importTrajectories,
  MemoryRestoreStore,
  pipelineCompressor,
  type ResolvedPrice,
  resolvePrice,
  type SimulationReport,
  STRATEGIES,
  type StrategyName,
  simulate,
} from '@distil/core';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import { formatTable } from '../table.js';

interface SavingsFlags {
  trajectory?: string;
  pricing?: string;
  strategies?: boolean;
  json?: boolean;
  lossless?: boolean;
  ttl?: string;
  config?: string;
}

/** The trajectories shipped in the repository (`datasets/generated/trajectories`). */
export const BUNDLED_TRAJECTORIES = fileURLToPath(
  new URL('../../../../datasets/generated/trajectories', import.meta.url),
);

/**
 * `distil savings`: what a trajectory costs under each strategy of the spec's table — no cache, cache
 * only, naive compression + cache, and Distil's cache-aware session layer — at one model's prices.
 */
export function registerSavings(program: Command): void {
  program
    .command('savings')
    .description('simulate the $ cost of a trajectory: no cache, cache only, naive compression, distil')
    .option(
      '--trajectory <file>',
      'a trajectory (distil JSON, SWE-agent .traj, OpenHands/Claude Code .jsonl, request body); default: the bundled ones',
    )
    .option('--pricing <model>', "model whose prices apply (default: the config's pricing.model)")
    .option('--strategies', 'also print each strategy turn by turn (cache reads, writes, fresh tokens)')
    .option('--lossless', 'compress with the lossless tier only (nothing folded behind handles)')
    .option('--ttl <ttl>', 'cache-write price to apply: 5m or 1h', '5m')
    .option('--json', 'print the full reports as JSON')
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<SavingsFlags>();
      const { config } = loadConfig(flags.config);
      const price = resolvePrice(flags.pricing, config.pricing);
      if (flags.ttl !== '5m' && flags.ttl !== '1h')
        throw new Error(`--ttl must be 5m or 1h, not ${flags.ttl}`);
      const trajectories = flags.trajectory ? importTrajectories(flags.trajectory) : bundledTrajectories();
      const keepModel = await loadKeepModel(config.keepModel, (m) => process.stderr.write(`distil: ${m}\n`));
      const names = Object.keys(STRATEGIES) as StrategyName[];
      const reports: SimulationReport[] = [];
      for (const trajectory of trajectories) {
        // A simulation never writes to the user's store: its folds live in memory for the run.
        const store = new MemoryRestoreStore();
        const depth = flags.lossless ? 'lossless' : 'digest';
        const compress = pipelineCompressor({ keepModel, store, tiers: config.tiers, depth });
        const report = await simulate(trajectory, price.price, names, {
          compress,
          store,
          keepModel,
          cacheTtl: flags.ttl,
          session: { skeleton: !flags.lossless },
        });
        reports.push(report);
        if (!flags.json) process.stdout.write(renderReport(report, price, flags.strategies === true));
      }
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ model: price.model, source: price.source, reports }, null, 2)}\n`,
        );
    });
}

function bundledTrajectories(): Trajectory[] {
  if (!existsSync(BUNDLED_TRAJECTORIES)) {
    throw new Error(`no bundled trajectories at ${BUNDLED_TRAJECTORIES}; pass --trajectory FILE`);
  }
  const files = readdirSync(BUNDLED_TRAJECTORIES)
    .filter((f) => /\.(json|jsonl|traj)$/.test(f))
    .sort();
  if (files.length === 0)
    throw new Error(`no trajectories in ${BUNDLED_TRAJECTORIES}; pass --trajectory FILE`);
  return files.flatMap((f) => importTrajectories(join(BUNDLED_TRAJECTORIES, f)));
}

const dollars = (usd: number): string => usd.toFixed(5);
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The spec's table for one trajectory, and with `perTurn` each strategy turn by turn. */
export function renderReport(report: SimulationReport, price: ResolvedPrice, perTurn: boolean): string {
  const cacheOnly = report.strategies.find((s) => s.strategy === 'cache-only');
  const distil = report.strategies.find((s) => s.strategy === 'distil');
  let out = `${report.trajectory}: ${report.turns} turns · ${price.model} · ${price.source}\n`;
  out += formatTable(
    ['strategy', '$ / run', 'vs baseline', 'cache hits', ''],
    report.strategies.map((s) => [
      s.label,
      dollars(s.totals.usd),
      percent(s.vsBaseline),
      count(s.totals.cacheRead),
      s.strategy === 'naive' && cacheOnly && s.totals.cacheRead < cacheOnly.totals.cacheRead
        ? '← rewrites the cached prefix'
        : '',
    ]),
  );
  if (cacheOnly && distil && cacheOnly.totals.usd > 0) {
    out += `distil vs cache only: ${percent(1 - distil.totals.usd / cacheOnly.totals.usd)} of $ saved\n`;
  }
  if (perTurn) {
    for (const s of report.strategies) {
      out += `\n${s.label}\n`;
      out += formatTable(
        ['turn', 'request', 'cache read', 'cache write', 'fresh', 'output', '$'],
        s.turns.map((t) => [
          t.turn + 1,
          count(t.requestTokens),
          count(t.cacheRead),
          count(t.cacheWrite),
          count(t.fresh),
          count(t.output),
          dollars(t.usd),
        ]),
      );
    }
  }
  return `${out}\n`;
}
