import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import type { BypassReason } from '../fail-open/part-failure.js';
import type { RequestSavings } from '../savings/savings-ledger.js';
import { registerUpstreamGauges, upstreamPools } from './upstream-gauges.js';

/** Overhead histogram buckets in seconds: the goal is ≤ 1 ms p50 (DESIGN.md), so resolve well below it. */
const OVERHEAD_BUCKETS = [0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** How a shadow comparison ended (see shadow-sampler.ts). */
export type ShadowOutcome = 'agreed' | 'diverged' | 'skipped';

/**
 * The proxy's Prometheus metrics, in a registry of its own (never prom-client's global one), so several
 * proxies in one process — tests, `distil wrap` beside a library user — never mix their counts. Default
 * process metrics are left out on purpose: they add timers and GC hooks to a process whose hot path is
 * measured in fractions of a millisecond.
 */
export class ProxyMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'provider'>;
  readonly #tokensBefore: Counter<'provider'>;
  readonly #tokensAfter: Counter<'provider'>;
  readonly #savedTokens: Counter<'provider'>;
  readonly #billedUsd: Counter<'provider'>;
  readonly #uncompressedUsd: Counter<'provider'>;
  readonly #savedUsd: Gauge<'provider'>;
  readonly #cacheRead: Counter<'provider'>;
  readonly #cacheWrite: Counter<'provider'>;
  readonly #expands: Counter<'kind'>;
  readonly #shadow: Counter<'endpoint' | 'outcome'>;
  readonly #shadowDivergences: Counter<'endpoint'>;
  readonly #overhead: Histogram<'route'>;
  readonly #bypass: Counter<'reason'>;

  /** `upstream`: the proxy's upstream pool and its per-origin limit, for the concurrency gauges. */
  constructor(upstream?: { readonly agent: Dispatcher; readonly connections: number }) {
    const registers = [this.registry];
    if (upstream)
      registerUpstreamGauges(this.registry, () => upstreamPools(upstream.agent), upstream.connections);
    const counter = <L extends string>(name: string, help: string, labelNames: L[]): Counter<L> =>
      new Counter({ name, help, labelNames, registers });
    this.#requests = counter(
      'distil_requests_total',
      'Provider requests the proxy compressed and forwarded.',
      ['provider'],
    );
    this.#tokensBefore = counter(
      'distil_input_tokens_before_total',
      'Input tokens the requests would have been billed without Distil (estimate: billed + removed).',
      ['provider'],
    );
    this.#tokensAfter = counter(
      'distil_input_tokens_after_total',
      'Input tokens billed by the provider (input + cache writes + cache reads, every upstream call).',
      ['provider'],
    );
    this.#savedTokens = counter(
      'distil_removed_tokens_total',
      'Tokens compression removed from requests (o200k estimate).',
      ['provider'],
    );
    this.#billedUsd = counter(
      'distil_billed_usd_total',
      'USD the billed usage cost at list prices (priced models only).',
      ['provider'],
    );
    this.#uncompressedUsd = counter(
      'distil_uncompressed_usd_total',
      'USD the same requests would have cost uncompressed (priced models only).',
      ['provider'],
    );
    // A gauge, not a counter: a request that cost more than it would have uncompressed lowers it, and
    // prom-client counters (rightly) refuse negative increments.
    this.#savedUsd = new Gauge({
      name: 'distil_saved_usd',
      help: 'USD saved so far: uncompressed minus billed, from billed usage. Goes down when Distil cost more.',
      labelNames: ['provider'],
      registers,
    });
    this.#cacheRead = counter('distil_cache_read_tokens_total', 'Input tokens billed as cache reads.', [
      'provider',
    ]);
    this.#cacheWrite = counter('distil_cache_write_tokens_total', 'Input tokens billed as cache writes.', [
      'provider',
    ]);
    this.#expands = counter(
      'distil_expands_total',
      'Folded originals read back for the model (distil_expand, first distil_search of a handle), by content class.',
      ['kind'],
    );
    this.#shadow = counter(
      'distil_shadow_requests_total',
      'Shadow comparisons by outcome (agreed, diverged, skipped).',
      ['endpoint', 'outcome'],
    );
    this.#shadowDivergences = counter(
      'distil_shadow_divergences_total',
      'Sampled requests whose uncompressed twin decided differently. A detector, not a gate.',
      ['endpoint'],
    );
    this.#bypass = counter(
      'distil_bypass_total',
      'Times Distil stood aside because one of its own parts failed (the request went upstream untouched, or some tool outputs whole), by reason.',
      ['reason'],
    );
    this.#overhead = new Histogram({
      name: 'distil_overhead_seconds',
      help: 'Time spent in the proxy per request (total minus upstream), as x-distil-overhead-ms reports it.',
      labelNames: ['route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    });
  }

  /** Counts one finished provider request from its content-free savings record. */
  recordRequest(savings: RequestSavings): void {
    const labels = { provider: savings.provider };
    const { billed, uncompressed } = savings;
    this.#requests.inc(labels);
    this.#tokensAfter.inc(labels, billed.input + billed.cacheWrite + billed.cacheRead);
    this.#tokensBefore.inc(labels, uncompressed.input + uncompressed.cacheWrite + uncompressed.cacheRead);
    this.#savedTokens.inc(labels, savings.savedTokens.fresh + savings.savedTokens.repeat);
    this.#cacheRead.inc(labels, billed.cacheRead);
    this.#cacheWrite.inc(labels, billed.cacheWrite);
    if (savings.actualUsd !== null) this.#billedUsd.inc(labels, savings.actualUsd);
    if (savings.uncompressedUsd !== null) this.#uncompressedUsd.inc(labels, savings.uncompressedUsd);
    if (savings.savedUsd !== null) this.#savedUsd.inc(labels, savings.savedUsd);
  }

  /** Counts one original read back for the model, by its content class. */
  recordExpand(kind: string): void {
    this.#expands.inc({ kind });
  }

  /**
   * The live sessions, awake (holding their original texts) or asleep, read when Prometheus scrapes: more
   * asleep than the traffic's active conversations means requests pay for waking them, and
   * `proxy.awakeSessions` should grow.
   */
  registerSessions(counts: () => { readonly awake: number; readonly asleep: number }): void {
    new Gauge({
      name: 'distil_sessions',
      help: 'Live sessions: awake (holding their original texts) or asleep (woken by their next request).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const { awake, asleep } = counts();
        this.set({ state: 'awake' }, awake);
        this.set({ state: 'asleep' }, asleep);
      },
    });
  }

  /** Counts one time Distil stood aside (x-distil-bypass), by reason. */
  recordBypass(reason: BypassReason): void {
    this.#bypass.inc({ reason });
  }

  /** Counts one shadow comparison. */
  recordShadow(endpoint: string, outcome: ShadowOutcome): void {
    this.#shadow.inc({ endpoint, outcome });
    if (outcome === 'diverged') this.#shadowDivergences.inc({ endpoint });
  }

  /** Observes the overhead one request reported, in milliseconds. */
  recordOverhead(route: string, ms: number): void {
    this.#overhead.observe({ route }, ms / 1000);
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
