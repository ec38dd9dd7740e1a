import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DistilConfig } from '@distil/contract';
import { openRestoreStore } from '@distil/core';
import {
  importFile,
  replayModel,
  type SessionSavings,
  sendSession,
  shippedProfile,
  startBillingUpstream,
  sumBills,
} from '@distil/savings';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCodeLog } from '../../../packages/savings/test/claude-code-fixture.js';
import { startProxyProcess } from './proxy-process.js';
import { runCliAsync } from './run-cli-async.js';

const root = mkdtempSync(join(tmpdir(), 'distil-cli-savings-'));
const home = join(root, 'home');
const env = { DISTIL_HOME: home };

// A folder laid out like ~/.claude/projects: a session, its subagent's log, and a workflow journal.
const projects = join(root, 'claude', 'projects', '-work-project');
mkdirSync(join(projects, 'subagents'), { recursive: true });
const mainLog = join(projects, 'session-0001.jsonl');
writeFileSync(mainLog, claudeCodeLog({ passingTests: 500, truncatedTail: true }));
writeFileSync(
  join(projects, 'subagents', 'agent-a1.jsonl'),
  claudeCodeLog({ passingTests: 120, sidechain: true }),
);
writeFileSync(join(projects, 'subagents', 'journal.jsonl'), '{"type":"started","agentId":"a1"}\n');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('distil savings (real binary)', () => {
  it('replays every session of a folder and prints each beside its ceiling, with what it skipped', async () => {
    const run = await runCliAsync(['savings', join(root, 'claude')], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/session\s+agent\s+calls\s+cache only\s+distil\s+saved\s+ceiling/);
    expect(run.stdout).toContain('claude-code-subagent');
    expect(run.stdout).toMatch(/Claude Code\s+2\s/);
    expect(run.stdout).toContain('1 log lines that were not valid JSON were skipped');
    expect(run.stdout).toMatch(/skipped 1 file:\n.*journal\.jsonl/);
    expect(run.stdout).toMatch(/Counted in distil: \d+ expand round trips/);
  }, 60_000);

  it('gives every figure as JSON: cheaper than direct, above the ceiling, no needed line lost', async () => {
    const run = await runCliAsync(['savings', mainLog, '--json'], env);
    expect(run.status, run.stderr).toBe(0);
    const { sessions } = JSON.parse(run.stdout) as { sessions: SessionSavings[] };
    expect(sessions).toHaveLength(1);
    const [s] = sessions;
    expect(s!.skippedLines).toBe(1);
    expect(s!.distil).toBeLessThan(s!.cacheOnly);
    expect(s!.ceiling).toBeLessThanOrEqual(s!.distil);
    expect(s!.cacheOnly).toBeLessThan(s!.noCache);
    expect(s!.recorded).toBeGreaterThan(0);
    expect(s!.fidelity.neededLines).toBeGreaterThan(0);
    expect(s!.fidelity.hiddenAfterExpands).toBe(0);
  }, 60_000);

  it("reads the agents' own folders by default, and says so when nothing is recent enough", async () => {
    const recent = await runCliAsync(['savings', '--json'], {
      ...env,
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      CODEX_HOME: join(root, 'no-codex'),
    });
    expect(recent.status, recent.stderr).toBe(0);
    expect((JSON.parse(recent.stdout) as { sessions: unknown[] }).sessions).toHaveLength(2);
    const old = new Date(Date.now() - 30 * 86_400_000);
    const stale = join(root, 'stale');
    mkdirSync(stale);
    const file = join(stale, 'old.jsonl');
    writeFileSync(file, claudeCodeLog());
    utimesSync(file, old, old);
    const none = await runCliAsync(['savings', stale, '--since', '7d'], env);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no agent sessions found');
    const bad = await runCliAsync(['savings', mainLog, '--pricing', 'no-such-model'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('pricing.model: unknown model "no-such-model"');
  }, 60_000);

  it('agrees with the same session sent through a `distil proxy` process (offline equals live)', async () => {
    const offline = await runCliAsync(['savings', mainLog, '--json'], env);
    const [figures] = (JSON.parse(offline.stdout) as { sessions: SessionSavings[] }).sessions;
    const [session] = importFile(mainLog);
    const liveHome = join(root, 'live-home');
    const store = await openRestoreStore(DistilConfig.parse({}).restoreStore, liveHome);
    const upstream = await startBillingUpstream({ model: replayModel(session!, store) });
    const proxy = await startProxyProcess(upstream.url, liveHome);
    try {
      await sendSession(session!, { profile: shippedProfile('messages') }, 'recorded', proxy.url);
      const live = sumBills(upstream.calls.flatMap((c) => (c.bill ? [c.bill] : []))).usd;
      const offlineSaved = 1 - figures!.distil / figures!.cacheOnly;
      const liveSaved = 1 - live / figures!.cacheOnly;
      expect(Math.abs(liveSaved - offlineSaved)).toBeLessThan(0.02);
    } finally {
      await proxy.stop();
      await upstream.close();
      await store.close();
    }
  }, 60_000);
});
