import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const home = mkdtempSync(join(tmpdir(), 'distil-proxy-cli-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('distil proxy', () => {
  it('prints where it listens and how to point clients at it, then stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', TSX, BIN, 'proxy', '--port', '0'], {
      env: { ...process.env, DISTIL_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 30 s: ${stdout}`)), 30_000);
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${stdout}`)));
    });
    expect(stdout).toContain(`export ANTHROPIC_BASE_URL=${url}`);
    expect(stdout).toContain(`export OPENAI_BASE_URL=${url}/v1`);
    const health = await fetch(`${url}/distil/health`);
    expect(await health.json()).toMatchObject({ ok: true });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/distil proxy stopped: 0 requests/);
  }, 60_000);

  it('refuses a non-loopback host without an admin token', async () => {
    const child = spawn(
      process.execPath,
      ['--import', TSX, BIN, 'proxy', '--port', '0', '--host', '0.0.0.0'],
      {
        env: { ...process.env, DISTIL_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/admin token/);
  }, 60_000);
});
