import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  anthropicWirePath,
  type BatteryReport,
  type CaseOutcome,
  type ContextPath,
  HOSTILE_CASES,
  runAdversarialBattery,
  sessionPath,
} from '@distil/battery';
import { loadKeepModel } from '@distil/codec';
import { type DistilConfig, parseOrThrow } from '@distil/contract';
import { DiskRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config-file.js';
import { formatTable } from '../table.js';

interface ValidateFlags {
  config?: string;
  adversarial?: boolean;
  json?: boolean;
  case?: string[];
  path?: string;
}

const Flags = z.object({
  adversarial: z.literal(true, { error: () => 'nothing to validate: pass --adversarial' }),
  path: z.enum(['both', 'session', 'proxy']).default('both'),
  case: z.array(z.enum(HOSTILE_CASES.map((c) => c.name) as [string, ...string[]])).optional(),
});

/**
 * Opens the paths to drive, each with its own throwaway disk store (the default backend) under `folder`,
 * so the battery never writes into the user's store. Everything opened is pushed to `opened`.
 */
async function openPaths(
  config: DistilConfig,
  which: 'both' | 'session' | 'proxy',
  folder: string,
  log: (line: string) => void,
  opened: { close(): Promise<void> }[],
): Promise<{ paths: ContextPath[]; keepModel: string }> {
  const keepModel = await loadKeepModel({ ...config.keepModel, fallback: 'salience' }, log);
  const paths: ContextPath[] = [];
  if (which !== 'proxy') {
    const store = await DiskRestoreStore.open({ path: join(folder, 'session-store') });
    opened.push(store);
    paths.push(sessionPath({ keepModel, store, tiers: config.tiers }));
  }
  if (which !== 'session') {
    const store = await DiskRestoreStore.open({ path: join(folder, 'proxy-store') });
    opened.push(store);
    const wire = await anthropicWirePath({
      store,
      startProxy: (upstream) =>
        startProxy({
          config,
          host: '127.0.0.1',
          port: 0,
          anthropicUpstream: upstream,
          store,
          keepModel,
          // adversarial test inputs are no agent's evidence: the learned policy is neither fed nor applied
          learn: false,
          log,
        }),
    });
    opened.push(wire); // closed in reverse order: the proxy before its store
    paths.push(wire);
  }
  return { paths, keepModel: keepModel.id };
}

const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;

function verdictOf(outcome: CaseOutcome): string {
  if (!outcome.holds) return 'FAILS';
  return outcome.cost ? 'holds (cost)' : 'holds';
}

function invariantsOf(outcome: CaseOutcome): string {
  const counted = outcome.checks.filter((c) => c.status !== 'n/a');
  return `${counted.filter((c) => c.status === 'pass').length}/${counted.length}`;
}

/** The table and the notes under it: the stated costs, and every failed check with its reason. */
export function renderBattery(report: BatteryReport): string {
  const rows = report.outcomes.map((o) => [
    o.case,
    o.path,
    o.branch,
    percent(o.savings),
    invariantsOf(o),
    verdictOf(o),
  ]);
  let out = formatTable(['case', 'path', 'branch', 'savings', 'checks', 'verdict'], rows);
  const costs = [...new Set(report.outcomes.flatMap((o) => (o.cost ? [`  ${o.case}: ${o.cost}`] : [])))];
  if (costs.length > 0) out += `\nstated costs:\n${costs.join('\n')}\n`;
  const failures = report.outcomes.flatMap((o) =>
    o.checks
      .filter((c) => c.status === 'fail')
      .map((c) => `  ${o.case} (${o.path}): ${c.name}${c.detail ? `: ${c.detail}` : ''}`),
  );
  const cases = new Set(report.outcomes.map((o) => o.case)).size;
  const paths = new Set(report.outcomes.map((o) => o.path)).size;
  out += failures.length
    ? `\nfailed:\n${failures.join('\n')}\n`
    : `\nevery invariant holds: ${cases} hostile cases × ${paths} path(s); branch kept = the line survives ` +
      'verbatim, folded = recoverable through an issued handle and announced by its stub\n';
  return out;
}

/**
 * `distil validate --adversarial [--json] [--case NAME…] [--path both|session|proxy]`: drives the hostile
 * cases of spec/threat-model.txt through the session layer with the configured keep model and through a
 * real proxy on loopback, each against throwaway stores; prints a table and exits 1 if any invariant fails.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('run the adversarial battery: hostile inputs against the compression invariants')
    .option('--adversarial', 'run the hostile cases of the threat model')
    .option('--json', 'print the full report as JSON')
    .option('--case <names...>', `only these cases (${HOSTILE_CASES.map((c) => c.name).join(', ')})`)
    .option('--path <path>', 'both | session | proxy (default both)')
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<ValidateFlags>();
      const given = parseOrThrow(
        Flags,
        { adversarial: flags.adversarial, path: flags.path, case: flags.case },
        'distil validate flags',
      );
      const { config } = loadConfig(flags.config);
      const log = (line: string): void => {
        process.stderr.write(`distil: ${line}\n`);
      };
      const folder = await mkdtemp(join(tmpdir(), 'distil-validate-'));
      const opened: { close(): Promise<void> }[] = [];
      try {
        const { paths, keepModel } = await openPaths(config, given.path, folder, log, opened);
        const report = await runAdversarialBattery(paths, given.case ? { cases: given.case } : {});
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ keepModel, ...report }, null, 2)}\n`
            : `${renderBattery(report)}keep model: ${keepModel}; throwaway disk stores, removed afterwards\n`,
        );
        if (!report.holds) process.exitCode = 1;
      } finally {
        for (const resource of opened.reverse()) await resource.close();
        await rm(folder, { recursive: true, force: true });
      }
    });
}
