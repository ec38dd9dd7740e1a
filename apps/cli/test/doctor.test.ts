import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from './run-cli-async.js';

interface DoctorReport {
  ok: boolean;
  checks: { check: string; status: 'ok' | 'warn' | 'fail'; detail: string }[];
}

describe('distil doctor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-doctor-'));
  const env = { DISTIL_HOME: join(dir, 'home') };
  let api: Server;
  let apiUrl: string;
  let closedUrl: string;

  beforeAll(async () => {
    // A stand-in provider: it wants credentials, as the real APIs do (the doctor sends none).
    api = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"missing key"}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    // A port nothing listens on: bind, note it, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ proxy: { port: 0 } }));
    writeFileSync(
      join(dir, 'broken.json'),
      JSON.stringify({
        keepModel: { type: 'logistic', weights: join(dir, 'no-such-weights.json') },
        proxy: { port: 0 },
      }),
    );
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => api.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every check on a healthy setup and prints an aligned table', async () => {
    const run = await runCliAsync(
      [
        '--config',
        join(dir, 'ok.json'),
        'doctor',
        '--anthropic-upstream',
        apiUrl,
        '--openai-upstream',
        apiUrl,
      ],
      env,
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^check\s+status\s+detail$/);
    for (const check of [
      'config',
      'distil home',
      'restore store',
      'keep model',
      'anthropic upstream',
      'openai upstream',
      'proxy port',
    ]) {
      expect(lines.find((l) => l.startsWith(`${check} `))).toMatch(/\sok\s/);
    }
    expect(run.stdout).toMatch(/anthropic upstream\s+ok\s+http:\/\/127\.0\.0\.1:\d+ answered 401/);
    expect(run.stdout).toContain('write, read and expand give the bytes back exactly');
    expect(run.stdout).toContain('Everything Distil needs is in place.');
  }, 60_000);

  it('says plainly what is wrong and exits 1', async () => {
    const run = await runCliAsync(
      [
        '--config',
        join(dir, 'broken.json'),
        'doctor',
        '--json',
        '--only',
        'anthropic',
        '--anthropic-upstream',
        closedUrl,
        '--timeout',
        '1000',
      ],
      env,
    );
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    const by = Object.fromEntries(report.checks.map((c) => [c.check, c]));
    expect(by['keep model']).toMatchObject({ status: 'fail' });
    expect(by['keep model']!.detail).toMatch(
      /keep model "logistic" does not load: .*fallback: the proxy would fall back to the salience rules/,
    );
    expect(by['anthropic upstream']).toMatchObject({ status: 'fail' });
    expect(by['anthropic upstream']!.detail).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
    expect(by['openai upstream']).toBeUndefined();
    expect(by['restore store']).toMatchObject({ status: 'ok' });
  }, 60_000);

  it('reports a config file that does not validate, field by field', async () => {
    writeFileSync(join(dir, 'invalid.json'), JSON.stringify({ proxy: { port: 'eighty' } }));
    const run = await runCliAsync(
      [
        '--config',
        join(dir, 'invalid.json'),
        'doctor',
        '--json',
        '--only',
        'anthropic',
        '--anthropic-upstream',
        apiUrl,
      ],
      env,
    );
    expect(run.status).toBe(1);
    const config = (JSON.parse(run.stdout) as DoctorReport).checks.find((c) => c.check === 'config');
    expect(config?.status).toBe('fail');
    expect(config?.detail).toMatch(/proxy\.port/);
  }, 60_000);
});
