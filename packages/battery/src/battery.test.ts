import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, MemoryRestoreStore, readForwarded } from '@distil/core';
import { describe, expect, it } from 'vitest';
import { runAdversarialBattery } from './battery.js';
import type { ContextPath, ForwardedRequest } from './context-path.js';
import { sessionPath } from './context-path.js';
import { COLLIDING_HANDLE, COLLIDING_SEEDS, collidingBlock, collidingRun } from './short-handle-collision.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const path = (): ContextPath => sessionPath({ keepModel, store: new MemoryRestoreStore(), tiers });

/** A path that rewrites what the session forwards: a deliberately broken Distil. */
function tampered(rewrite: (forwarded: ForwardedRequest) => ForwardedRequest): ContextPath {
  const inner = path();
  return {
    ...inner,
    name: 'tampered',
    conversation: () => {
      const conversation = inner.conversation();
      return {
        send: async (request) => rewrite(await conversation.send(request)),
        expand: (handle) => conversation.expand(handle),
      };
    },
  };
}

describe('the adversarial battery through the session layer', { timeout: 30_000 }, () => {
  it('holds every invariant on every case, with the threat model’s known outcomes', async () => {
    const report = await runAdversarialBattery([path()]);
    const failed = report.outcomes.flatMap((o) =>
      o.checks.filter((c) => c.status === 'fail').map((c) => `${o.case}: ${c.name} ${c.detail ?? ''}`),
    );
    expect(failed).toEqual([]);
    expect(report.holds).toBe(true);
    const outcome = (name: string) => report.outcomes.find((o) => o.case === name)!;
    // dedup_baiting lands in the second branch, and is pinned there
    expect(outcome('dedup_baiting').branch).toBe('folded');
    // decoy_verdict_flood is a denial of savings, reported as a cost
    expect(outcome('decoy_verdict_flood').savings).toBe(0);
    expect(outcome('decoy_verdict_flood').cost).toMatch(/0\.0%/);
    expect(outcome('shared_budget_equality').branch).toBe('kept');
    expect(outcome('short_handle_collision').branch).toBe('kept');
  }, 60_000);

  it('fails a path that drops error lines (lost line, not reversible)', async () => {
    const dropErrors = tampered((f) => ({
      ...f,
      tools: f.tools.map((text) => text.replace(/^.*(?:ERROR|FATAL).*\n/gm, '')),
    }));
    const report = await runAdversarialBattery([dropErrors], { cases: ['error_flood', 'tail_push'] });
    expect(report.holds).toBe(false);
    for (const outcome of report.outcomes) {
      expect(outcome.branch).toBe('lost');
      expect(outcome.checks.find((c) => c.name === 'reversible')?.status).toBe('fail');
    }
  });

  it('fails a path with a shared budget (the trusted block depends on its neighbour)', async () => {
    // Keeps at most 60 lines per request, shared across blocks in order: the COMA-style cap.
    const shared = tampered((f) => {
      let budget = 60;
      return {
        ...f,
        tools: f.tools.map((text) => {
          const lines = text.split('\n');
          const kept = lines.slice(0, Math.max(0, budget));
          budget -= lines.length;
          return kept.join('\n');
        }),
      };
    });
    const report = await runAdversarialBattery([shared], { cases: ['shared_budget_equality'] });
    expect(report.holds).toBe(false);
    const failed = report.outcomes[0]!.checks.filter((c) => c.status === 'fail').map((c) => c.name);
    expect(failed).toContain('same bytes alone and after the attacker block');
  });
});

describe('readForwarded', () => {
  it('catches a stub that misstates its line count, and a stub whose handle was swapped', async () => {
    const store = new MemoryRestoreStore();
    const text = collidingBlock(COLLIDING_SEEDS[0], 'victim', 'ERROR done');
    const out = await compressBlock(
      { id: 'b', role: 'tool', kind: 'log', text, trusted: false },
      { keepModel, store, tiers },
    );
    expect(out.handles).toEqual([COLLIDING_HANDLE]);
    expect(await readForwarded(text, out.text, store)).toMatchObject({
      encoding: 'folded',
      announced: true,
      reversible: true,
    });
    const miscounted = out.text.replace('<< +24 lines', '<< +23 lines');
    expect(await readForwarded(text, miscounted, store)).toMatchObject({ announced: false });
    const forged = out.text.replace(COLLIDING_HANDLE, 'dh_0000deadbeef');
    expect(await readForwarded(text, forged, store)).toMatchObject({ reversible: false });
  });

  it('sees the precomputed pair collide in 48 bits and differ in the full digest', async () => {
    const store = new MemoryRestoreStore();
    await store.put(new TextEncoder().encode(collidingRun(COLLIDING_SEEDS[0])));
    await expect(store.put(new TextEncoder().encode(collidingRun(COLLIDING_SEEDS[1])))).rejects.toThrow(
      /collision/,
    );
  });
});
