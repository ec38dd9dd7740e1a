import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from '../fixtures.js';
import { FAULT_HEADER, FaultUpstream } from './fault-upstream.js';
import { errorsIn, fireWave, loadAgent, loadRequests } from './load-run.js';

// A team's traffic: 500 streams held open while other requests come and go. No request
// may wait behind the streams for a connection (head-of-line blocking), and the proxy's upstream gauges
// say how many run and how many wait.

const STREAMS = 500;
const PROBES = 12;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};

describe('500 concurrent slow streams through one proxy', () => {
  let upstream: FaultUpstream;
  let proxy: TestProxy;
  const agent = loadAgent(STREAMS + 2 * PROBES);

  // Every stream stays open (its model still thinking) until the probes are done: however slowly a loaded
  // machine compresses the 500 requests, all of them are open at once while the probes run.
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    upstream = await new FaultUpstream().define('slow', { kind: 'gated', gate }).start();
    proxy = await startTestProxy(upstream, { learn: false });
  });
  afterAll(async () => {
    release();
    await agent.close();
    await proxy.close();
    await upstream.close();
  });

  /** One plain (non-streaming) request; resolves with its latency in milliseconds. */
  const plain = async (base: string): Promise<number> => {
    const started = performance.now();
    const response = await request(`${base}/v1/messages`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'sk-probe',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'ping' }],
      }),
    });
    await response.body.text();
    expect(response.statusCode).toBe(200);
    return performance.now() - started;
  };

  const gauge = (metrics: string, state: string): number => {
    const line = metrics
      .split('\n')
      .find((l) => l.startsWith('distil_upstream_requests{') && l.includes(`state="${state}"`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('answers plain requests in between as fast as direct, with 0 errors and bounded memory', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const streams = loadRequests(STREAMS, 'sk-team').map((r) => ({
      ...r,
      headers: { ...r.headers, [FAULT_HEADER]: 'slow' },
    }));
    const wave = fireWave(proxy.url, streams, agent);
    // every stream has reached the upstream and is waiting on it
    while (upstream.received.filter((r) => r.headers[FAULT_HEADER] === 'slow').length < STREAMS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // undici counts a request as running a moment after its bytes are out
    let metrics = '';
    for (let tries = 0; tries < 250 && gauge(metrics, 'running') < STREAMS; tries++) {
      metrics = await (await fetch(`${proxy.url}/metrics`)).text();
      if (gauge(metrics, 'running') < STREAMS) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let i = 0; i < PROBES; i++) {
      direct.push(await plain(upstream.url));
      proxied.push(await plain(proxy.url));
    }
    release();
    const results = await wave;

    expect(gauge(metrics, 'running')).toBe(STREAMS);
    expect(gauge(metrics, 'queued')).toBe(0);
    expect(metrics).toContain('distil_upstream_connection_limit 1024');
    expect(median(proxied) - median(direct)).toBeLessThan(100);
    expect(errorsIn(results), results.find((r) => r.error)?.error).toBe(0);
    expect(results.every((r) => r.bytes.includes('message_stop') || r.bytes.includes('[DONE]'))).toBe(true);
    // Bounded: 500 open streams and their compressed requests stay well inside a process's means.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(300 * 1024 ** 2);
    expect(proxy.logs).toEqual([]);
  }, 60_000);
});
