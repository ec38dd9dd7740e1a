import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadKeepModel } from '@distil/codec';
import { distilHome, MemoryRestoreStore } from '@distil/core';
import {
  applyDial,
  CompressionLadder,
  certifyFallback,
  DEFAULT_TARGETS,
  type DialPoint,
  type FallbackPlan,
  frontier,
  pipelineTransform,
  type RunnerEvidence,
  renderFrontierSvg,
  runnerEvidence,
  sumFrontiers,
} from '@distil/replay';
import type { Command } from 'commander';
import { loadConfig } from '../config-file.js';
import {
  count,
  percent,
  progressBar,
  type ReplayFlags,
  replayOptions,
  reportLiveCalls,
  runnerFromFlags,
  trajectoriesFromFlag,
} from '../replay-flags.js';
import { formatTable } from '../table.js';

interface FrontierFlags extends ReplayFlags {
  targets?: string;
  svg?: string;
}

function parseTargets(text: string | undefined): number[] {
  if (text === undefined) return [...DEFAULT_TARGETS];
  const targets = text.split(',').map((t) => Number(t.trim()));
  const bad = targets.find((t) => !(t >= 0 && t <= 1));
  if (bad !== undefined || targets.length === 0)
    throw new Error(`--targets must be numbers in [0, 1], comma-separated: ${text}`);
  return [...new Set(targets)];
}

/**
 * `distil frontier`: certified fallback per turn, then the equivalence dial swept over its settings —
 * savings against decision equivalence, as a table, and as an SVG plot when `--svg FILE` asks for one
 * (a report command leaves the current folder as it found it).
 */
export function registerFrontier(program: Command): void {
  replayOptions(
    program
      .command('frontier')
      .description(
        'fallback per turn and the equivalence dial (an offline report, certified only by a live runner): token savings against decision equivalence',
      ),
  )
    .option('--targets <list>', `dial settings, comma-separated (default ${DEFAULT_TARGETS.join(',')})`)
    .option('--svg <file>', 'also write the plot as an SVG file')
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<FrontierFlags>();
      const targets = parseTargets(flags.targets);
      const { config } = loadConfig(flags.config);
      const trajectories = trajectoriesFromFlag(flags.trajectory);
      const runner = runnerFromFlags(flags);
      const keepModel = await loadKeepModel(config.keepModel, (m) => process.stderr.write(`distil: ${m}\n`));
      const plans: FallbackPlan[] = [];
      for (const trajectory of trajectories) {
        // Folds of a replay live in memory for the run: the user's store is never written.
        const ladder = new CompressionLadder(
          pipelineTransform({ keepModel, store: new MemoryRestoreStore(), tiers: config.tiers }),
        );
        const bar = progressBar(`certifying ${trajectory.id}`);
        try {
          plans.push(await certifyFallback(trajectory, { runner, ladder, onProgress: bar.onProgress }));
        } finally {
          bar.stop();
        }
      }
      reportLiveCalls(runner);
      const perTrajectory = plans.map((plan) => frontier(plan, targets));
      const total = sumFrontiers(perTrajectory);
      const svgPath = flags.svg === undefined ? undefined : resolve(flags.svg);
      const title =
        plans.length === 1
          ? `frontier: ${plans[0]!.trajectory}`
          : `frontier over ${plans.length} trajectories`;
      const series = [
        ...(plans.length > 1
          ? plans.map((plan, i) => ({ label: plan.trajectory, points: perTrajectory[i]! }))
          : []),
        {
          label: plans.length > 1 ? 'all trajectories' : plans[0]!.trajectory,
          points: total,
          emphasis: true,
        },
      ];
      if (svgPath !== undefined)
        writeFileSync(svgPath, renderFrontierSvg(series, `${title} (${runner.id} runner)`));
      saveForDashboard({ runner: runner.id, frontier: total });
      if (flags.json) {
        const trajectoriesJson = plans.map((plan, i) => ({ ...plan, frontier: perTrajectory[i] }));
        process.stdout.write(
          `${JSON.stringify({ runner: runner.id, certified: runnerEvidence(runner).certified, svg: svgPath ?? null, frontier: total, trajectories: trajectoriesJson }, null, 2)}\n`,
        );
        return;
      }
      process.stdout.write(renderFrontier(plans, perTrajectory, total, runnerEvidence(runner)));
      if (svgPath !== undefined) process.stdout.write(`plot written to ${svgPath}\n`);
    });
}

/**
 * The frontier table, what the fallback chose, and (for several trajectories) a line per trajectory. The
 * fallback is called certified only when a live runner made its decisions; the structural runner's is
 * named as the heuristic it is.
 */
export function renderFrontier(
  plans: readonly FallbackPlan[],
  perTrajectory: readonly (readonly DialPoint[])[],
  total: readonly DialPoint[],
  evidence: RunnerEvidence,
): string {
  const { runner } = evidence;
  const turns = plans.reduce((s, p) => s + p.turns.length, 0);
  const what = plans.length === 1 ? `'${plans[0]!.trajectory}'` : `${plans.length} trajectories`;
  let out = `equivalence frontier over ${what} (${runner} runner, ${turns} turns)\n\n`;
  out += formatTable(
    ['target', 'budget', 'divergent', 'equivalence', 'tokens', 'saved', 'savings'],
    total.map((p) => [
      p.target,
      p.budget,
      p.divergent,
      percent(p.equivalence),
      count(p.tokens),
      count(p.saved),
      percent(p.savings),
    ]),
  );
  const levels = { digest: 0, lossless: 0, none: 0 };
  for (const plan of plans) for (const t of plan.turns) levels[t.certified]++;
  const fallback = evidence.certified
    ? `certified fallback (target 1, ${runner})`
    : `fallback (target 1, ${runner}: ${evidence.basis}; not certified)`;
  out += `\n${fallback}: digest kept on ${levels.digest} turn(s), lossless on ${levels.lossless}, uncompressed on ${levels.none}.\n`;
  if (plans.length > 1) {
    const at = (points: readonly DialPoint[], target: number): DialPoint | undefined =>
      points.find((p) => p.target === target);
    const rows = plans.map((plan, i) => {
      const certified = applyDial(plan, 1);
      const deepest = at(perTrajectory[i]!, Math.min(...perTrajectory[i]!.map((p) => p.target)));
      return [
        plan.trajectory,
        plan.turns.length,
        plan.turns.filter((t) => !t.digestAgrees).length,
        percent(certified.savings),
        deepest ? percent(deepest.savings) : '—',
        deepest ? percent(deepest.equivalence) : '—',
      ];
    });
    out += `\n${formatTable(['trajectory', 'turns', 'digest diverges', evidence.certified ? 'certified savings' : 'target-1 savings', 'lowest-target savings', 'its equivalence'], rows)}`;
  }
  return `${out}\n`;
}

/**
 * Keeps the last frontier at `$DISTIL_HOME/frontier.json`, where the proxy's dashboard draws it from.
 * Written to a temporary file and renamed, so a dashboard never reads half a file.
 */
function saveForDashboard(data: { runner: string; frontier: unknown }): void {
  const home = distilHome();
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, 'frontier.json');
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}
