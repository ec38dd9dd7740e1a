import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// The binary starts a proxy and runs every case twice: seconds of work, more on a busy machine.
describe('distil validate --adversarial', { timeout: 120_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), 'distil-validate-cli-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('prints the table with every invariant holding, through the session layer and a real proxy', () => {
    const run = runCli(['validate', '--adversarial'], { cwd: home, env: { DISTIL_HOME: home } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^case\s+path\s+branch\s+savings\s+checks\s+verdict/);
    expect(run.stdout).toMatch(/dedup_baiting\s+session\s+folded/);
    expect(run.stdout).toMatch(/dedup_baiting\s+proxy\s+folded/);
    expect(run.stdout).toMatch(/decoy_verdict_flood\s+proxy\s+kept\s+0\.0%\s+\S+\s+holds \(cost\)/);
    expect(run.stdout).toContain('every invariant holds');
    expect(run.stdout).not.toContain('FAILS');
  });

  it('prints the report as JSON and refuses to run without a battery', () => {
    const json = runCli(
      ['validate', '--adversarial', '--json', '--path', 'session', '--case', 'forged_handle'],
      {
        cwd: home,
        env: { DISTIL_HOME: home },
      },
    );
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { holds: boolean; outcomes: { case: string; path: string }[] };
    expect(report.holds).toBe(true);
    expect(report.outcomes.map((o) => `${o.case}/${o.path}`)).toEqual(['forged_handle/session']);
    const bare = runCli(['validate'], { cwd: home, env: { DISTIL_HOME: home } });
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain('--adversarial');
  });
});
