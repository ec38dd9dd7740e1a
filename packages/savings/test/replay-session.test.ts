import { describe, expect, it } from 'vitest';
import {
  importClaudeCodeLog,
  parseJsonLines,
  replaySession,
  type SessionReplay,
  sessionSavings,
  shippedProfile,
} from '../src/index.js';
import { claudeCodeLog, FAILURE_LINE } from './claude-code-fixture.js';

const session = (() => {
  const { records, skipped } = parseJsonLines(claudeCodeLog({ passingTests: 600 }));
  return importClaudeCodeLog(records, 'session.jsonl', skipped.length);
})();

let replay: SessionReplay | undefined;
const replayed = async (): Promise<SessionReplay> => {
  replay ??= await replaySession(session, { profile: shippedProfile('messages') });
  return replay;
};

describe('a recorded session replayed through the proxy', () => {
  it('sends every call on every route and bills each like the provider', async () => {
    const r = await replayed();
    expect(r.direct.calls).toHaveLength(3);
    expect(r.ceiling.calls).toHaveLength(3);
    // The second and third direct calls read the prefix the first wrote.
    expect(r.direct.calls[2]!.bill!.cacheRead).toBeGreaterThan(0);
    expect(r.ceiling.bill.usd).toBeLessThan(r.direct.bill.usd);
  }, 30_000);

  it('forwards the CI log compressed, the failing test in view, and costs less than direct', async () => {
    const r = await replayed();
    const forwarded = r.distil.calls.find((c) => c.exchange === 1)!.body.toString('utf8');
    expect(forwarded).toContain(JSON.stringify(FAILURE_LINE).slice(1, -1));
    const figures = sessionSavings(r);
    expect(figures.distil).toBeLessThan(figures.cacheOnly);
    expect(figures.ceiling).toBeLessThanOrEqual(figures.distil);
    expect(figures.toolTokens.forwarded).toBeLessThan(figures.toolTokens.original / 2);
    expect(figures.toolDefinitionTokens).toBeGreaterThan(0);
    expect(figures.recorded).not.toBeNull();
    expect(figures.fidelity.neededLines).toBeGreaterThan(0);
    expect(figures.fidelity.hiddenAfterExpands).toBe(0);
  }, 30_000);

  it('bounds a faithful compressor between the ceiling and direct: each result cut to its needed lines', async () => {
    const r = await replayed();
    const cut = r.neededOnly.calls.find((c) => c.exchange === 2)!.body.toString('utf8');
    // The failing test is what the answer names; the passing lines around it are not.
    expect(cut).toContain(JSON.stringify(FAILURE_LINE).slice(1, -1));
    expect(cut).not.toContain('suite_3/case_343');
    expect(r.ceiling.bill.usd).toBeLessThan(r.neededOnly.bill.usd);
    expect(r.neededOnly.bill.usd).toBeLessThan(r.direct.bill.usd);
    const figures = sessionSavings(r);
    expect(figures.neededOnly).toBe(r.neededOnly.bill.usd);
  }, 30_000);

  it('prices a configured shadow sample rate at its expected cost, inside the distil figure', async () => {
    const r = await replayed();
    const off = sessionSavings(r);
    const sampled = sessionSavings(r, undefined, 0.1);
    expect(off.shadowUsd).toBe(0);
    expect(sampled.shadowUsd).toBeGreaterThan(0.1 * off.cacheOnly);
    expect(sampled.distil).toBeCloseTo(off.distil + sampled.shadowUsd, 10);
  }, 30_000);

  it('expands a fold when the recorded reply refers to a line the proxy hid', async () => {
    // The answer quotes a passing line deep inside what the proxy folds.
    const text = claudeCodeLog({ passingTests: 600 }).replace(
      'The failing test is parser/readString keeps escaped quotes',
      'suite_3/case_343 also ran; the failing test is parser/readString keeps escaped quotes',
    );
    const { records } = parseJsonLines(text);
    const s = importClaudeCodeLog(records, 'session.jsonl', 0);
    const r = await replaySession(s, { profile: shippedProfile('messages') });
    const figures = sessionSavings(r);
    expect(figures.expandCalls).toBe(1);
    expect(figures.expandUsd).toBeGreaterThan(0);
    // the expand costs the call that asked for it; the reply the agent got is billed direct too
    const expanded = r.distil.calls.find((c, i) => r.distil.calls[i + 1]?.exchange === c.exchange)!;
    const exchange = r.distil.calls.filter((c) => c.exchange === expanded.exchange);
    expect(exchange).toHaveLength(2);
    expect(figures.expandUsd).toBeCloseTo(exchange[0]!.bill!.usd, 10);
    expect(figures.fidelity.hiddenLines).toBeGreaterThan(0);
    expect(figures.fidelity.hiddenAfterExpands).toBeLessThan(figures.fidelity.hiddenLines);
  }, 30_000);
});
