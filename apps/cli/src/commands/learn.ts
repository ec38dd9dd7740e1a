import { distilHome } from '@distil/core';
import { expandStatsPath, guidelineStatsPath, LearnedPolicy, type PolicyEntry } from '@distil/replay';
import type { Command } from 'commander';
import { count, percent } from '../replay-flags.js';
import { formatTable } from '../table.js';

const verdict = (e: PolicyEntry): string =>
  e.protectedBy.length > 0
    ? `protected (${e.protectedBy.join(' + ')})`
    : e.suspect
      ? 'digest (suspect)'
      : 'digest';

/** `distil learn`: the policy both learning flywheels have built, signature by signature. */
export function registerLearn(program: Command): void {
  program
    .command('learn')
    .description('show the learned policy: signatures kept byte-exact because of expands or regressions')
    .option('--json', 'print the policy as JSON')
    .action((_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<{ json?: boolean }>();
      const home = distilHome();
      const policy = LearnedPolicy.load(home);
      const entries = policy.entries();
      const files = { expand: expandStatsPath(home), guideline: guidelineStatsPath(home) };
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ files, thresholds: policy.thresholds, protected: policy.protectedSignatures(), entries }, null, 2)}\n`,
        );
        return;
      }
      const { expand, guideline } = policy.thresholds;
      let out = `learned policy (${home}): ${policy.protectedSignatures().length} protected signature(s)\n\n`;
      out +=
        entries.length === 0
          ? 'nothing learned yet: expands are tallied by the proxy, regressions by `distil certify-trajectories`.\n'
          : formatTable(
              ['signature', 'digests', 'expands', 'expand rate', 'runs', 'regressions', 'verdict'],
              entries.map((e) => [
                e.signature,
                count(e.digests),
                count(e.expands),
                e.digests > 0 ? percent(e.expands / e.digests) : '—',
                count(e.runs),
                count(e.regressions),
                verdict(e),
              ]),
            );
      out += `\nprotected = never digested, sent byte-exact. Thresholds: expand rate ≥ ${percent(expand.rate)} over ≥ ${expand.minExpands} expands; regressions ≥ ${guideline.minRegressions} and ≥ ${percent(guideline.minShare)} of the runs that digested it.\n`;
      out += `Both flywheels only ever add protection. Statistics: ${files.expand}, ${files.guideline}\n`;
      process.stdout.write(out);
    });
}
