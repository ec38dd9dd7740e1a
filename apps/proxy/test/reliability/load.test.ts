import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { FaultUpstream } from './fault-upstream.js';
import { errorsIn, fireWave, loadAgent, loadRequests, mismatches } from './load-run.js';

// 200 concurrent streaming requests through the proxy, on loopback, in three waves: no errors, every
// stream byte for byte the stream the upstream sends directly, memory bounded. Counts and waves are fixed
// (600 proxied streams in all); nothing here asserts a duration. `pnpm bench:load` reports the figures.

const CONCURRENCY = 200;
const WAVES = 3;
const MAX_SESSIONS = 64;

describe('load: 200 concurrent streams', () => {
  let upstream: FaultUpstream;
  let proxy: RunningProxy;
  const store = new MemoryRestoreStore();
  const agent = loadAgent(CONCURRENCY);
  const logs: string[] = [];

  beforeAll(async () => {
    upstream = await new FaultUpstream().start();
    proxy = await startProxy({
      port: 0,
      learn: false, // nothing learned from or into the real Distil home
      anthropicUpstream: upstream.url,
      openaiUpstream: upstream.url,
      store,
      keepModel: new SalienceKeepModel(),
      sessionLimits: { maxSessions: MAX_SESSIONS },
      log: (line) => logs.push(line),
    });
  });
  afterAll(async () => {
    await agent.close();
    await proxy.close();
    await upstream.close();
  });

  it('relays every stream byte for byte with 0 errors, and memory stays bounded', async () => {
    const heap: number[] = [];
    for (let wave = 0; wave < WAVES; wave++) {
      // distinct conversations in every wave, so sessions come and go
      const requests = loadRequests(CONCURRENCY).map((r) => ({
        ...r,
        body: r.body.replace(/fix job (\d+)/, `fix job $1 wave ${wave}`),
      }));
      const direct = await fireWave(upstream.url, requests, agent);
      const received = upstream.received.length;
      const proxied = await fireWave(proxy.url, requests, agent);
      expect(errorsIn(direct)).toBe(0);
      expect(errorsIn(proxied), proxied.find((r) => r.error)?.error).toBe(0);
      expect(mismatches(direct, proxied)).toBe(0);
      // one upstream request per proxied request (no retries, no expand rounds), each compressed
      const forwarded = upstream.received.slice(received);
      expect(forwarded).toHaveLength(CONCURRENCY);
      for (const seen of forwarded) expect(seen.body.length).toBeLessThan(requests[0]!.body.length / 2);
      heap.push(process.memoryUsage().heapUsed);
    }
    const health = (await (await fetch(`${proxy.url}/distil/health`)).json()) as { sessions: number };
    expect(health.sessions).toBeLessThanOrEqual(MAX_SESSIONS);
    // Bounded: the last wave leaves the heap within a generous margin of the first (sessions are
    // evicted, nothing accumulates per request). The store holds every fold by design and is bounded
    // by its own maxBytes.
    expect(heap.at(-1)! - heap[0]!).toBeLessThan(150 * 1024 ** 2);
    expect(store.size).toBeLessThan(store.maxBytes);
    expect(logs).toEqual([]);
  }, 120_000);
});
