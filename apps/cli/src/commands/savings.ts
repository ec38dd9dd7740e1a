import { loadKeepModel } from '@distil/codec';
import { resolvePrice } from '@distil/core';
import {
  defaultSessionFolders,
  importSessions,
  replaySession,
  type SessionSavings,
  type SkippedFile,
  sessionSavings,
  shippedProfile,
} from '@distil/savings';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import { renderSavings } from '../savings-table.js';

interface SavingsFlags {
  trajectory?: string;
  since?: string;
  pricing?: string;
  json?: boolean;
  config?: string;
}

/** How far back `distil savings` looks in the agents' own folders when no file is given. */
const DEFAULT_SINCE = '7d';

/**
 * `distil savings [paths…]`: replays recorded agent sessions — Claude Code logs, Codex rollouts,
 * SWE-agent and OpenHands trajectories — request by request through the proxy's own rewrite into a local
 * upstream that bills like the provider, and prints what each session cost direct and through Distil,
 * beside the most compression could have saved.
 */
export function registerSavings(program: Command): void {
  program
    .command('savings')
    .description(
      'what your recorded agent sessions cost direct and through Distil, replayed through the proxy',
    )
    .argument(
      '[paths...]',
      `session logs or folders (default: ${defaultSessionFolders().join(' and ')}, last ${DEFAULT_SINCE})`,
    )
    .option('--trajectory <file>', 'one session file (the same as giving it as a path)')
    .option('--since <age>', 'only files modified in this window: 7d, 12h, 30m, or a date (2026-11-01)')
    .option('--pricing <model>', 'price every call at this model (default: each call at its own model)')
    .option('--json', 'print every figure as JSON')
    .action(async (paths: string[], _opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<SavingsFlags>();
      const { config } = loadConfig(flags.config);
      const price = flags.pricing ? resolvePrice(flags.pricing, config.pricing) : undefined;
      const given = [...paths, ...(flags.trajectory ? [flags.trajectory] : [])];
      const folders = given.length > 0 ? given : defaultSessionFolders();
      const since = parseSince(flags.since ?? (given.length > 0 ? undefined : DEFAULT_SINCE));
      const { sessions, skipped } = importSessions(folders, since);
      if (sessions.length === 0) {
        throw new Error(
          `no agent sessions found in ${folders.join(', ')}${since ? ` since ${since.toISOString()}` : ''}` +
            `${skipped.length > 0 ? ` (${skipped.length} files skipped: ${skipped[0]!.reason})` : ''}; ` +
            'pass a Claude Code log, a Codex rollout, a SWE-agent .traj or an OpenHands output.jsonl',
        );
      }
      const keepModel = await loadKeepModel(config.keepModel, (m) => process.stderr.write(`distil: ${m}\n`));
      const figures: SessionSavings[] = [];
      for (const [i, session] of sessions.entries()) {
        if (!flags.json)
          process.stderr.write(`distil: replaying ${i + 1}/${sessions.length} ${session.id}\n`);
        const replay = await replaySession(session, {
          profile: shippedProfile(session.api),
          config,
          keepModel,
          price: price?.price,
        });
        figures.push(sessionSavings(replay, price?.price, config.proxy.shadowSampleRate));
      }
      if (flags.json) process.stdout.write(`${JSON.stringify(report(figures, skipped), null, 2)}\n`);
      else process.stdout.write(renderSavings(figures, skipped));
    });
}

function report(figures: readonly SessionSavings[], skipped: readonly SkippedFile[]) {
  return { sessions: figures, skipped };
}

/** `7d`, `12h`, `30m` before now, or a date; undefined for no limit. */
export function parseSince(value: string | undefined, now = Date.now()): Date | undefined {
  if (value === undefined) return undefined;
  const age = /^(\d+)\s*([dhm])$/.exec(value.trim());
  if (age) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[age[2] as 'd' | 'h' | 'm'];
    return new Date(now - Number(age[1]) * unit);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new Error(`--since must be an age (7d, 12h, 30m) or a date (2026-11-01), not "${value}"`);
  }
  return date;
}
