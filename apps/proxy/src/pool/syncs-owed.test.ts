import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SyncsOwed } from './syncs-owed.js';

/** A sync the test settles by hand. */
function gate(): { readonly durable: Promise<void>; settle(ok: boolean): void } {
  let settle: (ok: boolean) => void = () => {};
  const durable = new Promise<void>((resolve, reject) => {
    settle = (ok) => (ok ? resolve() : reject(Object.assign(new Error('eio'), { code: 'EIO' })));
  });
  return { durable, settle: (ok) => settle(ok) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SyncsOwed', () => {
  it('settles a wait only once every sync owed for its handles settled, whatever the order (property)', async () => {
    const step = fc.record({ handle: fc.constantFrom('dh_a', 'dh_b', 'dh_c'), ok: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.nat(), async (steps, seed) => {
        const logs: string[] = [];
        const syncs = new SyncsOwed((line) => logs.push(line));
        const gates = steps.map((s) => ({ ...s, ...gate() }));
        for (const g of gates) syncs.owe(g.handle, g.durable);
        const asked = ['dh_a', 'dh_b'];
        let settled = false;
        void syncs.syncedFor(asked).then(() => (settled = true));
        // settle in an order drawn from the seed
        const order = gates
          .map((_, i) => i)
          .sort((x, y) => ((x * 7919 + seed) % 13) - ((y * 7919 + seed) % 13));
        for (const [n, i] of order.entries()) {
          gates[i]!.settle(gates[i]!.ok);
          await tick();
          const owedLeft = order.slice(n + 1).some((k) => asked.includes(gates[k]!.handle));
          expect(settled).toBe(!owedLeft);
        }
        expect(settled).toBe(true);
        expect(syncs.size).toBe(0);
        // every failed sync is logged once, by its code, and never rejects a wait
        expect(logs).toHaveLength(gates.filter((g) => !g.ok).length);
        for (const line of logs) expect(line).toMatch(/fsync was not confirmed \(EIO\)/);
      }),
      { numRuns: 200 },
    );
  });

  it('logs a failed promise once, however many handles it covers', async () => {
    const logs: string[] = [];
    const syncs = new SyncsOwed((line) => logs.push(line));
    const shared = gate();
    for (const handle of ['dh_a', 'dh_b', 'dh_c']) syncs.owe(handle, shared.durable);
    shared.settle(false);
    await syncs.syncedFor(['dh_a', 'dh_b', 'dh_c']);
    expect(logs).toHaveLength(1);
    expect(syncs.size).toBe(0);
  });

  it('answers at once for handles owed nothing', async () => {
    const syncs = new SyncsOwed(() => {});
    const pending = gate();
    syncs.owe('dh_x', pending.durable);
    let settled = false;
    void syncs.syncedFor(['dh_y', 'dh_z']).then(() => (settled = true));
    await tick();
    expect(settled).toBe(true);
    pending.settle(true);
  });
});
