import { Gauge, type Registry } from 'prom-client';
import type { Dispatcher } from 'undici';

/** One origin's pool as undici counts it (`Agent#stats`, a `PoolStats` per origin). */
interface PoolCounts {
  readonly connected: number;
  readonly running: number;
  readonly pending: number;
}

/** The upstream pool's counts per origin, or none for a dispatcher that keeps no stats (a proxy agent). */
export function upstreamPools(agent: Dispatcher): Record<string, PoolCounts> {
  const stats = (agent as { stats?: Record<string, PoolCounts> }).stats;
  return stats && typeof stats === 'object' ? stats : {};
}

/**
 * Upstream concurrency, read from the pool when Prometheus scrapes, so the request path pays nothing:
 * requests in flight (`running`), requests waiting for a connection (`queued` — above zero, the pool is
 * the bottleneck and `proxy.upstreamConnections` should grow), open connections, and the configured limit.
 */
export function registerUpstreamGauges(
  registry: Registry,
  pools: () => Record<string, PoolCounts>,
  connectionLimit: number,
): void {
  const registers = [registry];
  new Gauge({
    name: 'distil_upstream_requests',
    help: 'Upstream requests per origin: running (a connection is serving it) or queued (waiting for one).',
    labelNames: ['origin', 'state'],
    registers,
    collect() {
      this.reset();
      for (const [origin, pool] of Object.entries(pools())) {
        this.set({ origin, state: 'running' }, pool.running);
        this.set({ origin, state: 'queued' }, pool.pending);
      }
    },
  });
  new Gauge({
    name: 'distil_upstream_connections',
    help: 'Open upstream connections per origin.',
    labelNames: ['origin'],
    registers,
    collect() {
      this.reset();
      for (const [origin, pool] of Object.entries(pools())) this.set({ origin }, pool.connected);
    },
  });
  new Gauge({
    name: 'distil_upstream_connection_limit',
    help: 'Connections the proxy opens at most per upstream origin (proxy.upstreamConnections).',
    registers,
  }).set(connectionLimit);
}
