import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ShadowRunFile, wilsonInterval } from '@distil/proxy';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const home = mkdtempSync(join(tmpdir(), 'distil-shadow-stats-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A shadow record as a proxy run writes it (counts only). */
function run(endpoints: ShadowRunFile['endpoints'], skipped: Record<string, number> = {}): ShadowRunFile {
  const diverged = Object.entries(endpoints).flatMap(([endpoint, c]) =>
    Array.from({ length: c.diverged }, () => ({
      at: '2026-03-01T10:00:00.000Z',
      endpoint,
      model: 'claude-sonnet-4-6',
      class: 'tool_arguments' as const,
    })),
  );
  const sampled =
    Object.values(endpoints).reduce((s, c) => s + c.compared, 0) +
    Object.values(skipped).reduce((s, n) => s + n, 0);
  return {
    version: 1,
    startedAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    sampleRate: 0.02,
    sampled,
    endpoints,
    skipped,
    divergences: diverged,
  };
}

describe('distil shadow-stats', () => {
  it('says when nothing was recorded, and that shadow mode is a detector', () => {
    const result = runCli(['shadow-stats'], { env: { DISTIL_HOME: join(home, 'empty') } });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('No comparisons recorded yet');
    expect(result.stdout).toContain('a detector, not a gate');
  });

  it('sums every run and prints the rate with its Wilson interval, as a table and as JSON', () => {
    const folder = join(home, 'shadow');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'a.json'),
      JSON.stringify(run({ '/v1/messages': { compared: 40, diverged: 3 } })),
    );
    writeFileSync(
      join(folder, 'b.json'),
      JSON.stringify(
        run(
          { '/v1/messages': { compared: 20, diverged: 2 }, '/v1/responses': { compared: 10, diverged: 0 } },
          { continuation: 4 },
        ),
      ),
    );
    writeFileSync(join(folder, 'notes.json'), '{"hello": "world"}');
    const result = runCli(['shadow-stats'], { env: { DISTIL_HOME: home } });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/notes\.json is not a shadow record/);
    const i = wilsonInterval(5, 70);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    expect(result.stdout).toMatch(/^endpoint\s+compared\s+diverged\s+rate\s+95% interval \(Wilson\)$/m);
    expect(result.stdout).toMatch(
      new RegExp(`^all\\s+70\\s+5\\s+${pct(i.rate)}\\s+${pct(i.low)}–${pct(i.high)}$`, 'm'),
    );
    expect(result.stdout).toMatch(/^\/v1\/responses\s+10\s+0\s+0\.0%\s+0\.0%–/m);
    expect(result.stdout).toContain('sampled but not compared: continuation 4');
    expect(result.stdout).toContain('2 run(s), 74 request(s) sampled');

    const json = runCli(['shadow-stats', '--json', '--confidence', '0.9'], { env: { DISTIL_HOME: home } });
    const parsed = JSON.parse(json.stdout) as {
      compared: number;
      diverged: number;
      interval: { low: number; high: number };
    };
    expect(parsed).toMatchObject({ compared: 70, diverged: 5 });
    expect(parsed.interval.low).toBeCloseTo(wilsonInterval(5, 70, 0.9).low, 12);
    expect(parsed.interval.high).toBeLessThan(i.high);
  }, 60_000);
});
