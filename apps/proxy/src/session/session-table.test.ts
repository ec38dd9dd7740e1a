import { SalienceKeepModel } from '@distil/codec';
import { TierConfig } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import { describe, expect, it } from 'vitest';
import { ExpandLearning } from '../operate/expand-learning.js';
import { SessionTable } from './session-table.js';

const deps = {
  keepModel: new SalienceKeepModel(),
  store: new MemoryRestoreStore(),
  tiers: TierConfig.parse({}),
  learning: ExpandLearning.off(),
};

const log = (seed: number) =>
  Array.from({ length: 60 }, (_, i) => `2026-01-01T00:00:00Z job ${seed} step ${i}: ok`).join('\n');
const inputs = (seed: number) => [{ id: `t${seed}`, tool: 'bash', text: log(seed) }];

describe('SessionTable', () => {
  it('keeps the most recently used sessions awake and the others asleep, and forgets beyond maxSessions', async () => {
    const table = new SessionTable(deps, { maxSessions: 3, awakeSessions: 2 });
    const encode = (key: string, seed: number) => table.get(key).encode(inputs(seed), () => new Set());
    const first = (await encode('a', 1)).sent.map((s) => s.text);
    await encode('b', 2);
    await encode('c', 3);
    await new Promise((resolve) => setImmediate(resolve)); // a sleep waits for the session's lock
    const [a, b, c] = [table.get('a'), table.get('b'), table.get('c')];
    await new Promise((resolve) => setImmediate(resolve));
    // a slept when c came; b and c, the two most recent again, never did (a sleep asked for while a
    // session waits its turn is called off when it is used again before)…
    expect([a.awake, b.awake, c.awake]).toEqual([false, true, true]);
    // … and a session wakes on its next request, with the bytes it sent before
    expect((await encode('a', 1)).sent.map((s) => s.text)).toEqual(first);
    expect(a.awake).toBe(true);
    // a fourth session: the least recently used (b) is forgotten
    table.get('d');
    expect(table.size).toBe(3);
    expect(table.get('b')).not.toBe(b);
  });

  it('puts only the sessions beyond awakeSessions to sleep', async () => {
    const table = new SessionTable(deps, { maxSessions: 8, awakeSessions: 2 });
    const sessions = [];
    for (const seed of [1, 2, 3]) {
      const session = table.get(`s${seed}`);
      sessions.push(session);
      await session.encode(inputs(seed), () => new Set());
    }
    await new Promise((resolve) => setImmediate(resolve)); // a sleep waits for the session's lock
    expect(sessions.map((s) => s.awake)).toEqual([false, true, true]);
  });

  it('with awakeSessions 0, leaves every session asleep after each of its requests', async () => {
    const table = new SessionTable(deps, { maxSessions: 8, awakeSessions: 0 });
    const session = table.get('a');
    const first = (await session.encode(inputs(1), () => new Set())).sent.map((s) => s.text);
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.awake).toBe(false);
    const again = table.get('a');
    expect((await again.encode(inputs(1), () => new Set())).sent.map((s) => s.text)).toEqual(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect(again.awake).toBe(false);
  });
});
