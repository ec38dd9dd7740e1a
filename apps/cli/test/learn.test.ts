import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'distil-learn-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 300-line build log (log:l) with one failure: the digest folds most of it. */
const LOG = `${Array.from({ length: 300 }, (_, i) =>
  i === 150 ? 'ERROR test_widget_150 failed: expected 3, got 4' : `INFO step ${i}: compiled module_${i}.ts`,
).join('\n')}\n`;
const input = join(dir, 'build.log');
writeFileSync(input, LOG);

/** A home whose expand statistics say what a proxy would have written after agents kept expanding. */
function homeWith(signatures: Record<string, { digests: number; expands: number }>): string {
  const home = mkdtempSync(join(dir, 'home-'));
  mkdirSync(join(home, 'learn'));
  const rows = Object.fromEntries(
    Object.entries(signatures).map(([s, c]) => [s, { ...c, protectedSince: null }]),
  );
  writeFileSync(join(home, 'learn', 'expand-stats.json'), JSON.stringify({ version: 1, signatures: rows }));
  return home;
}

interface Compressed {
  readonly text: string;
  readonly handles: string[];
  readonly tier: string;
  readonly note?: string;
}

const compress = (home: string): Compressed => {
  const run = runCli(['compress', input, '--json'], { env: { DISTIL_HOME: home } });
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Compressed;
};

describe('distil compress and distil learn under a learned policy (real binary)', () => {
  it('folds the log with nothing learned, and keeps it byte-exact once its class is protected', () => {
    const fresh = compress(mkdtempSync(join(dir, 'fresh-')));
    expect(fresh.tier).toBe('digest');
    expect(fresh.handles.length).toBeGreaterThan(0);

    // 3 expands over 4 digests: past the shipped thresholds (≥ 3 expands, ≥ 25 %)
    const home = homeWith({ 'log:l': { digests: 4, expands: 3 }, 'log:m': { digests: 40, expands: 3 } });
    const kept = compress(home);
    expect(kept).toMatchObject({
      text: LOG,
      handles: [],
      tier: 'none',
      note: 'protected by the learned policy',
    });

    const learn = runCli(['learn', '--json'], { env: { DISTIL_HOME: home } });
    expect(learn.status).toBe(0);
    expect(JSON.parse(learn.stdout).protected).toEqual(['log:l']);
    const table = runCli(['learn'], { env: { DISTIL_HOME: home } });
    expect(table.stdout).toMatch(/log:l\s.*protected \(expands\)/);
  });

  it('a class below the thresholds is still folded, and `--lossless` stays lossless', () => {
    const home = homeWith({ 'log:l': { digests: 40, expands: 3 } }); // 7.5 %: not protected
    expect(compress(home).tier).toBe('digest');
    const run = runCli(['compress', input, '--json', '--lossless'], {
      env: { DISTIL_HOME: homeWith({ 'log:l': { digests: 3, expands: 3 } }) },
    });
    expect(JSON.parse(run.stdout).tier).toBe('lossless');
  });

  it('compresses as usual when the statistics cannot be read, and says why', () => {
    const home = mkdtempSync(join(dir, 'broken-'));
    mkdirSync(join(home, 'learn'));
    writeFileSync(join(home, 'learn', 'expand-stats.json'), '{ not json');
    const run = runCli(['compress', input, '--json'], { env: { DISTIL_HOME: home } });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).tier).toBe('digest');
    expect(run.stderr).toContain('learned policy not applied');
  });
});
