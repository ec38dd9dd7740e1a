import {
  type Interval,
  learnFromRuns,
  type Matching,
  type NonInferiority,
  nonInferiorityTest,
  pairedOutcomes,
  readMatchedRuns,
  regressed,
  runEvidence,
} from '@distil/replay';
import type { Command } from 'commander';
import { percent, progressBar } from '../replay-flags.js';
import { formatTable } from '../table.js';

interface CertifyFlags {
  full: string;
  compressed: string;
  margin: string;
  alpha: string;
  learn?: boolean;
  json?: boolean;
}

const fraction = (flag: string, text: string): number => {
  const value = Number(text);
  if (!(value > 0 && value < 1)) throw new Error(`${flag} must be a number between 0 and 1, not ${text}`);
  return value;
};

const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(1)}%`;
const interval = (i: Interval): string => `[${signed(i.lower)}, ${signed(i.upper)}]`;

/**
 * `distil certify-trajectories`: matched full/compressed runs with pass/fail outcomes, a one-sided
 * non-inferiority test (Tango's score test for paired proportions) at a margin, and the guideline
 * flywheel fed with the pairs.
 */
export function registerCertifyTrajectories(program: Command): void {
  program
    .command('certify-trajectories')
    .description('is compression non-inferior on task outcomes? paired runs, one-sided Tango score test')
    .requiredOption(
      '--full <dir>',
      'runs with the full context (any trajectory format; outcomes.json may give outcomes)',
    )
    .requiredOption('--compressed <dir>', 'the same tasks run with compression (matched by run id)')
    .option('--margin <m>', 'largest acceptable loss of pass rate, as a fraction', '0.05')
    .option('--alpha <a>', 'one-sided significance level', '0.05')
    .option('--no-learn', "don't feed the pairs to the guideline flywheel")
    .option('--json', 'print the full report as JSON')
    .action((_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<CertifyFlags>();
      const margin = fraction('--margin', flags.margin);
      const alpha = fraction('--alpha', flags.alpha);
      if (alpha >= 0.5) throw new Error(`--alpha must be below 0.5, not ${flags.alpha}`);
      const bar = progressBar('reading runs');
      let matching: Matching;
      try {
        matching = readMatchedRuns(flags.full, flags.compressed, bar.onProgress);
      } finally {
        bar.stop();
      }
      if (matching.pairs.length === 0) {
        throw new Error(
          `no matched runs with outcomes (${matching.onlyFull.length} only in --full, ${matching.onlyCompressed.length} only in --compressed, ${matching.noOutcome.length} without an outcome)`,
        );
      }
      const table = pairedOutcomes(matching.pairs);
      const test = nonInferiorityTest(table, margin, alpha);
      const evidence = matching.pairs.map(runEvidence);
      const suspects = [...new Set(evidence.filter((e) => e.regressed).flatMap((e) => e.digested))].sort();
      const learned = flags.learn === false ? null : learnFromRuns(evidence);
      const regressions = matching.pairs.filter(regressed).map((p) => p.id);
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              table,
              test,
              regressions,
              unmatched: {
                full: matching.onlyFull,
                compressed: matching.onlyCompressed,
                noOutcome: matching.noOutcome,
              },
              guideline: {
                suspects,
                newlyProtected: learned?.newlyProtected ?? [],
                learned: learned !== null,
                repeatedPairs: learned?.repeated ?? 0,
              },
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      process.stdout.write(renderCertification(matching, test, table));
      process.stdout.write(
        `\nguideline flywheel: ${regressions.length} regressed pair(s); suspects: ${suspects.join(', ') || 'none'}` +
          (learned === null
            ? ' (not recorded: --no-learn)\n'
            : `; newly protected: ${learned.newlyProtected.join(', ') || 'none'}${learned.repeated > 0 ? ` (${learned.repeated} pair(s) already counted)` : ''}\n`),
      );
    });
}

/** The paired table, the interval and the verdict. */
export function renderCertification(
  matching: Matching,
  test: NonInferiority,
  table: ReturnType<typeof pairedOutcomes>,
): string {
  let out = `matched runs: ${test.pairs} pair(s)`;
  const left = [
    matching.onlyFull.length > 0 ? `${matching.onlyFull.length} only in --full` : '',
    matching.onlyCompressed.length > 0 ? `${matching.onlyCompressed.length} only in --compressed` : '',
    matching.noOutcome.length > 0 ? `${matching.noOutcome.length} without an outcome` : '',
  ].filter(Boolean);
  out += left.length > 0 ? ` (left out: ${left.join(', ')})\n\n` : '\n\n';
  out += formatTable(
    ['', 'compressed pass', 'compressed fail'],
    [
      ['full pass', table.bothPass, table.fullOnly],
      ['full fail', table.compressedOnly, table.bothFail],
    ],
  );
  const level = `${Math.round((1 - 2 * test.alpha) * 100)}%`;
  out += `\npass rate: full ${percent(test.passRate.full)}, compressed ${percent(test.passRate.compressed)}; difference (compressed − full) ${signed(test.difference.estimate)}\n`;
  out += `Tango score ${level} interval for the difference: ${interval(test.difference)}\n`;
  out += `one-sided test of H0 "compression loses more than ${percent(test.margin)} of pass rate" at alpha ${test.alpha}: Z = ${test.z.toFixed(3)}, p = ${test.pValue.toFixed(4)}\n`;
  out += test.nonInferior
    ? `verdict: NON-INFERIOR — the interval's lower bound ${signed(test.difference.lower)} is above −${percent(test.margin)}.\n`
    : `verdict: NOT SHOWN — the lower bound ${signed(test.difference.lower)} does not clear −${percent(test.margin)} (more pairs, or a wider margin, may settle it).\n`;
  return out;
}
