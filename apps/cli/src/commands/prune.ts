import { type AblationReport, ablate, type BlockVerdict, type RunnerEvidence } from '@distil/replay';
import type { Command } from 'commander';
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

interface PruneFlags extends ReplayFlags {
  exhaustive?: boolean;
}

/**
 * `distil prune`: causal ablation (spec: "Causal / counterfactual pruning") — remove each block, replay,
 * and print which blocks never changed a decision and how many tokens are free to drop. An offline
 * report: every verdict names the runner that made it, and only a live runner's verdict is certified.
 */
export function registerPrune(program: Command): void {
  replayOptions(
    program
      .command('prune')
      .description(
        'causal ablation (an offline report): which context blocks never changed a decision, and the tokens free to drop',
      ),
  )
    .option('--exhaustive', 'replay every occurrence of a block, even after one changed a decision')
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<PruneFlags>();
      const trajectories = trajectoriesFromFlag(flags.trajectory);
      const runner = runnerFromFlags(flags);
      const reports: AblationReport[] = [];
      for (const trajectory of trajectories) {
        const bar = progressBar(`ablating ${trajectory.id}`);
        try {
          reports.push(
            await ablate(trajectory, {
              runner,
              onProgress: bar.onProgress,
              exhaustive: flags.exhaustive === true,
            }),
          );
        } finally {
          bar.stop();
        }
        if (!flags.json) process.stdout.write(renderAblation(reports[reports.length - 1]!));
      }
      reportLiveCalls(runner);
      if (flags.json) {
        const worded = reports.map((report) => ({
          ...report,
          blocks: report.blocks.map((block) => ({ ...block, verdict: verdictOf(block, report) })),
        }));
        const certified = reports.every((report) => report.certified);
        process.stdout.write(
          `${JSON.stringify({ runner: runner.id, certified, reports: worded, totals: totals(reports) }, null, 2)}\n`,
        );
      } else if (reports.length > 1) {
        process.stdout.write(renderSummary(reports));
      }
    });
}

/**
 * The verdict column of the spec's table, naming the runner that made it: "PRUNE (structural: no copied
 * token lost)" is what the structural heuristic saw; "certified" is kept for a live runner's verdict.
 */
export function verdictOf(block: BlockVerdict, evidence: RunnerEvidence): string {
  if (block.trusted) return 'keep (trusted: the task or instructions)';
  const by = evidence.runner;
  if (block.changedDecision) return `keep (${by}: changed a decision)`;
  if (block.droppable)
    return evidence.certified
      ? `PRUNE (${by}, certified: ${evidence.basis})`
      : `PRUNE (${by}: ${evidence.basis})`;
  return `keep (${by}: inert alone, not beside the pruned blocks)`;
}

/** The closing line: certified tokens for a live runner, a heuristic's figure named as one otherwise. */
function freeLine(report: AblationReport): string {
  const what = `${count(report.freeTokens)} across ${report.freeBlocks} block(s)`;
  if (report.certified) return `tokens certified free to drop by ${report.runner}: ${what}.`;
  return (
    `tokens free to drop under the ${report.runner} runner (${report.basis}; not certified — ` +
    `--runner anthropic|openai asks a model): ${what}.`
  );
}

const byId = (a: BlockVerdict, b: BlockVerdict): number =>
  a.id.localeCompare(b.id, 'en', { numeric: true }) || a.addedAt - b.addedAt;

/** The spec's table for one trajectory: block, occurrences, tokens, verdict, and the free tokens. */
export function renderAblation(report: AblationReport): string {
  let out = `causal ablation over '${report.trajectory}' — what is free to drop?\n`;
  out += `(${report.runner} runner, ${report.turns} turns with a decision, ${count(report.replays)} replays)\n\n`;
  out += formatTable(
    ['block', 'occ', 'tokens', 'verdict'],
    [...report.blocks].sort(byId).map((b) => [b.id, b.occurrences, count(b.tokens), verdictOf(b, report)]),
  );
  out += `\n${freeLine(report)}\n\n`;
  return out;
}

function totals(reports: readonly AblationReport[]): {
  tokens: number;
  freeTokens: number;
  freeBlocks: number;
  blocks: number;
} {
  return {
    tokens: reports.reduce((s, r) => s + r.blocks.reduce((t, b) => t + b.tokens, 0), 0),
    freeTokens: reports.reduce((s, r) => s + r.freeTokens, 0),
    freeBlocks: reports.reduce((s, r) => s + r.freeBlocks, 0),
    blocks: reports.reduce((s, r) => s + r.blocks.length, 0),
  };
}

function renderSummary(reports: readonly AblationReport[]): string {
  const rows = reports.map((r) => {
    const tokens = r.blocks.reduce((t, b) => t + b.tokens, 0);
    return [
      r.trajectory,
      r.turns,
      `${r.freeBlocks}/${r.blocks.length}`,
      count(tokens),
      count(r.freeTokens),
      percent(tokens === 0 ? 0 : r.freeTokens / tokens),
    ];
  });
  const t = totals(reports);
  rows.push([
    'all',
    reports.reduce((s, r) => s + r.turns, 0),
    `${t.freeBlocks}/${t.blocks}`,
    count(t.tokens),
    count(t.freeTokens),
    percent(t.tokens === 0 ? 0 : t.freeTokens / t.tokens),
  ]);
  return `summary over ${reports.length} trajectories\n${formatTable(['trajectory', 'turns', 'pruned blocks', 'tokens', 'free tokens', 'free %'], rows)}`;
}
