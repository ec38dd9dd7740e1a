import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskRestoreStore, restoreBlock } from '@distil/core';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'distil-compress-'));
const env = { DISTIL_HOME: join(dir, 'home') };
const bundled = join(
  import.meta.dirname,
  '../../../datasets/generated/tool_outputs/maven/maven-04-compile-error.log',
);

describe('distil compress / expand (real binary)', () => {
  it('folds a bundled build log, keeps its errors, and expands every fold back byte for byte', async () => {
    const original = readFileSync(bundled, 'utf8');
    const run = runCli(['compress', bundled, '--json'], { env });
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as {
      text: string;
      handles: string[];
      tokens: { before: number; after: number };
      keepModel: string;
    };
    expect(out.keepModel).toBe('salience');
    expect(out.text).toContain('BUILD FAILURE');
    expect(out.text).toContain('cannot find symbol');
    expect(out.tokens.after).toBeLessThan(out.tokens.before / 3);
    // one fold through the binary, every fold through the store the binary wrote to
    const first = runCli(['expand', out.handles[0]!], { env });
    expect(first.status).toBe(0);
    expect(original).toContain(first.stdout);
    const store = await DiskRestoreStore.open({ path: join(env.DISTIL_HOME, 'store') });
    const restored = await restoreBlock(out.text, out.handles, store);
    expect(restored).toBe(original);
  });

  it('names the keep model that decided in its summary', () => {
    const run = runCli(['compress', bundled, '--keep-model', 'logistic'], { env });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/digest tier, \d+ fold\(s\) \(keep model logistic:[0-9a-f]{12}\)/);
  });

  it('passes binary input through byte for byte and says so', () => {
    const file = join(dir, 'blob.bin');
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28, 0x0a]);
    writeFileSync(file, bytes);
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../src/bin.ts'), 'compress', file],
      {
        env: { ...process.env, ...env },
      },
    );
    expect(run.status).toBe(0);
    expect(Buffer.compare(run.stdout, bytes)).toBe(0);
    expect(run.stderr.toString()).toContain('not UTF-8 text');
  });

  it('handles empty input and a single 40 MB line without losing a byte', () => {
    const empty = runCli(['compress', '-'], { env, input: '' });
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe('');
    const file = join(dir, 'huge.txt');
    const line = 'x'.repeat(40 * 1024 * 1024);
    writeFileSync(file, line);
    const run = runCli(['compress', file], { env });
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBe(line.length);
    expect(run.stdout === line).toBe(true);
    expect(run.stderr).toContain('passed through');
  });

  it('rejects an unknown kind and an unknown keep model by name', () => {
    const kind = runCli(['compress', bundled, '--kind', 'binary'], { env });
    expect(kind.status).toBe(1);
    expect(kind.stderr).toContain('--kind');
    const model = runCli(['compress', bundled, '--keep-model', 'gpt'], { env });
    expect(model.status).toBe(1);
    expect(model.stderr).toMatch(/salience|logistic|transformer/);
  });

  it('reports an unknown or forged handle on expand', () => {
    const run = runCli(['expand', 'dh_000000000000'], { env });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown handle');
  });
});
