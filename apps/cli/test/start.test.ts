import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { commandsFor } from '../src/program.js';
import { VERSION } from '../src/version.js';
import { runCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const names = (args: string[]): string[] => commandsFor(args).map((entry) => entry.name);

// The binary is started several times (a tsx start is 1–3 s on a busy machine).
describe('distil start', { timeout: 60_000 }, () => {
  it('loads only the command a line names', () => {
    expect(names(['compress', 'file.log'])).toEqual(['compress']);
    expect(names(['--config', 'expand', 'search', 'dh_0'])).toEqual(['search']);
    expect(names(['--version'])).toEqual([]);
    expect(names(['--help'])).toHaveLength(COMMANDS.length);
    expect(names(['compres'])).toHaveLength(COMMANDS.length);
    expect(names([])).toHaveLength(COMMANDS.length);
  });

  it('still lists every command in help and suggests one for a typo', () => {
    const help = runCli(['--help']).stdout;
    for (const { name } of COMMANDS) expect(help).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(runCli(['compres']).stderr).toContain('(Did you mean compress?)');
    expect(runCli(['expand', '--help']).stdout).toContain('Usage: distil expand');
  });

  it('`pnpm distil` prints what the command prints and nothing before it', () => {
    const run = spawnSync('pnpm', ['distil', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${VERSION}\n`);
  });
});
