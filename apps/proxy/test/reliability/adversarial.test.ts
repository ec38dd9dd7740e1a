import { anthropicWirePath, type ContextPath, runAdversarialBattery } from '@distil/battery';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../../src/index.js';

// The adversarial battery of spec/threat-model.txt through a real proxy on loopback: every hostile case
// goes in as Anthropic Messages requests, what the model would read is taken from what the upstream
// received, and expands go through the proxy's own distil_expand loop.

describe('the adversarial battery through the proxy', () => {
  let path: ContextPath;
  const logs: string[] = [];

  beforeAll(async () => {
    const store = new MemoryRestoreStore();
    path = await anthropicWirePath({
      store,
      startProxy: (upstream) =>
        startProxy({
          port: 0,
          learn: false, // nothing learned from or into the real Distil home
          anthropicUpstream: upstream,
          store,
          keepModel: new SalienceKeepModel(),
          log: (line) => logs.push(line),
        }),
    });
  });
  afterAll(async () => {
    await path.close();
  });

  it('holds every invariant on every case', async () => {
    const report = await runAdversarialBattery([path]);
    const failed = report.outcomes.flatMap((o) =>
      o.checks.filter((c) => c.status === 'fail').map((c) => `${o.case}: ${c.name} ${c.detail ?? ''}`),
    );
    expect(failed).toEqual([]);
    const branch = Object.fromEntries(report.outcomes.map((o) => [o.case, o.branch]));
    expect(branch.dedup_baiting).toBe('folded');
    expect(branch.short_handle_collision).toBe('kept');
    expect(report.outcomes.find((o) => o.case === 'decoy_verdict_flood')?.savings).toBe(0);
    // a refused collision is a denial of savings, not a failed request: nothing went wrong enough to log
    expect(logs).toEqual([]);
  }, 60_000);
});
