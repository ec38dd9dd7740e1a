import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DiskRestoreStore } from '@distil/core';
import { beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Runs the real binary and keeps stdout as raw bytes (expand output need not be text). */
function runBinary(args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const result = spawnSync(process.execPath, ['--import', TSX, BIN, ...args], {
    env: { ...process.env, ...env },
    cwd,
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

const home = join(mkdtempSync(join(tmpdir(), 'distil-cli-store-')), 'home');
const env = { DISTIL_HOME: home };
// Every byte value, invalid UTF-8 and a NUL: expand must hand back bytes, not text.
const binary = Uint8Array.from([...Array.from({ length: 256 }, (_, i) => i), 0xc3, 0x28, 0x0a, 0x00]);
const logLines = Array.from({ length: 120 }, (_, i) => `step ${i + 1}: fetching shard ${i % 9} ok`);
logLines[76] = 'step 77: checksum mismatch in shard quokka-3';
const log = `${logLines.join('\n')}\n`;
let binaryHandle = '';
let logHandle = '';

beforeAll(async () => {
  // The default store of the CLI: $DISTIL_HOME/store.
  const store = await DiskRestoreStore.open({ path: join(home, 'store') });
  binaryHandle = await store.put(binary);
  logHandle = await store.put(new TextEncoder().encode(log));
});

describe('distil expand (real binary)', () => {
  it('writes the original bytes to stdout and nothing else', () => {
    const run = runBinary(['expand', binaryHandle], env);
    expect(run.status).toBe(0);
    expect(Buffer.compare(run.stdout, Buffer.from(binary))).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('exits 1 with "distil: unknown handle" for unknown, forged and malformed handles', () => {
    for (const handle of ['dh_0123456789ab', 'dh_../../etc', 'not-a-handle']) {
      const run = runBinary(['expand', handle], env);
      expect(run.status).toBe(1);
      expect(run.stdout.length).toBe(0);
      expect(run.stderr).toMatch(/^distil: unknown handle /);
    }
  });

  it('leaves eviction to the writers: a record past maxAgeDays is still there after an expand', async () => {
    const path = join(home, 'store');
    const store = await DiskRestoreStore.open({ path, sweepOnOpen: false });
    const stale = await store.put(new TextEncoder().encode('read 40 days ago'));
    const file = join(path, stale.slice(3, 5), stale);
    const fortyDaysAgo = Date.now() / 1000 - 40 * 24 * 3600;
    utimesSync(file, fortyDaysAgo, fortyDaysAgo);
    try {
      // a sweep (which lists every record) would remove it: the default maxAgeDays is 30
      expect(runBinary(['expand', binaryHandle], env).status).toBe(0);
      expect(runBinary(['search', logHandle, 'quokka'], env).status).toBe(0);
      expect(existsSync(file)).toBe(true);
    } finally {
      rmSync(file);
    }
  });

  it('opens the store the config names', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'distil-cli-cwd-'));
    writeFileSync(
      join(cwd, 'distil.config.json'),
      JSON.stringify({ restoreStore: { type: 'disk', path: join(home, 'store') } }),
    );
    const run = runBinary(['expand', logHandle], { DISTIL_HOME: join(cwd, 'unused-home') }, cwd);
    expect(run.stdout.toString('utf8')).toBe(log);
  });
});

describe('distil search (real binary)', () => {
  it('prints the best chunks with line ranges and scores', () => {
    const run = runBinary(['search', logHandle, 'quokka checksum shard', '-k', '2'], env);
    expect(run.status).toBe(0);
    const out = run.stdout.toString('utf8');
    const headings = out.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toHaveLength(2);
    expect(headings[0]).toMatch(/^#1 {2}lines 65-84 {2}score +\d+\.\d{3}$/);
    expect(out).toContain('77 │ step 77: checksum mismatch in shard quokka-3');
  });

  it('prints JSON with --json', () => {
    const run = runBinary(['search', logHandle, 'quokka', '--json'], env);
    const parsed = JSON.parse(run.stdout.toString('utf8'));
    expect(parsed.handle).toBe(logHandle);
    expect(parsed.results[0]).toMatchObject({ lineStart: 65, lineEnd: 84 });
    expect(parsed.results[0].chunk).toContain('quokka-3');
  });

  it('rejects a bad -k and an unknown handle', () => {
    expect(runBinary(['search', logHandle, 'x', '-k', '0'], env).stderr).toContain('positive integer');
    const run = runBinary(['search', 'dh_ffffffffffff', 'x'], env);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^distil: unknown handle "dh_ffffffffffff"/);
  });
});
