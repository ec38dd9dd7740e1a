import type { ServerResponse } from 'node:http';
import type { RestoreStore } from '@distil/contract';
import { LearnedPolicy } from '@distil/replay';
import type { Dispatcher } from 'undici';
import type { RequestSavings, SavingsTotals } from '../savings/savings-ledger.js';
import type { AdminHandler } from '../server/routes.js';
import { dashboardData } from './dashboard/dashboard-data.js';
import { renderDashboard } from './dashboard/dashboard-page.js';
import type { ExchangeObserver, ObservedExchange } from './exchange-observer.js';
import { countingStore } from './expand-counter.js';
import { ProxyMetrics } from './proxy-metrics.js';
import { SavingsTimeline } from './savings-timeline.js';
import { readShadowStats, ShadowLedger } from './shadow/shadow-ledger.js';
import { type ShadowOptions, ShadowSampler } from './shadow/shadow-sampler.js';
import { wilsonInterval } from './shadow/wilson-interval.js';

/** What the operating layer needs from the proxy it runs in. */
export interface OperationsOptions {
  /** Distil home: shadow records are written under it, the learned policy and frontier read from it. */
  readonly home: string;
  /** Shadow mode, or null for none. */
  readonly shadow: ShadowOptions | null;
  readonly agent: Dispatcher;
  /** The agent's connections per origin (`proxy.upstreamConnections`), reported beside its use. */
  readonly upstreamConnections: number;
  readonly maxReplyBytes: number;
  readonly log: (line: string) => void;
  readonly totals: () => SavingsTotals;
  /** The keep model that decides what is folded, and whether it is the rules standing in for another. */
  readonly keepModel?: { readonly id: string; readonly fallback: boolean };
  /** The learned policy the proxy applies now (counts not yet written included); null: read `home`'s. */
  readonly policy?: () => LearnedPolicy | null;
}

function send(res: ServerResponse, contentType: string, body: string): void {
  res.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * Everything that runs a proxy in daily use, beside the request path: Prometheus metrics (`/metrics`),
 * the dashboard (`/dashboard`, data at `/distil/dashboard.json`), shadow mode and its statistics
 * (`/distil/shadow`). It sees requests through the proxy's hooks only — the savings ledger's listener,
 * the exchange observer, and the store the expand loop reads — so the request path itself is unchanged.
 */
export class ProxyOperations {
  readonly metrics: ProxyMetrics;
  readonly timeline = new SavingsTimeline();
  readonly shadow: ShadowSampler | null;
  readonly #ledger: ShadowLedger | null;
  readonly #options: OperationsOptions;

  constructor(options: OperationsOptions) {
    this.#options = options;
    this.metrics = new ProxyMetrics({ agent: options.agent, connections: options.upstreamConnections });
    const rate = options.shadow?.sampleRate ?? 0;
    this.#ledger = options.shadow && rate > 0 ? new ShadowLedger(options.home, rate) : null;
    this.shadow =
      options.shadow && this.#ledger
        ? new ShadowSampler(options.shadow, {
            agent: options.agent,
            ledger: this.#ledger,
            metrics: this.metrics,
            log: options.log,
            maxReplyBytes: options.maxReplyBytes,
          })
        : null;
  }

  /** The exchange observer: overhead per request, and shadow sampling. */
  readonly observe: ExchangeObserver = (exchange: ObservedExchange): void => {
    const { res, clock, route } = exchange;
    res.once('finish', () => {
      if (clock.reportedMs === null) return;
      this.metrics.recordOverhead(route, clock.reportedMs);
      this.timeline.recordOverhead(clock.reportedMs);
    });
    this.shadow?.observe(exchange);
  };

  /** The savings ledger's listener. */
  recordRequest(savings: RequestSavings): void {
    this.metrics.recordRequest(savings);
    this.timeline.record(savings);
  }

  /** The store the expand loop should answer from: `store`, with every original it serves counted. */
  expandStore(store: RestoreStore): RestoreStore {
    return countingStore(store, (kind) => {
      this.metrics.recordExpand(kind);
      this.timeline.recordExpand(kind);
    });
  }

  /** `/metrics`, `/dashboard`, `/distil/dashboard.json` and `/distil/shadow`, guarded like every admin route. */
  adminRoutes(): Record<string, AdminHandler> {
    const data = () => {
      this.#flushShadow();
      const { home, policy } = this.#options;
      return dashboardData(
        home,
        this.#options.totals(),
        this.timeline,
        this.#sampleRate(),
        () => policy?.() ?? LearnedPolicy.load(home),
        this.#options.keepModel,
      );
    };
    return {
      '/metrics': async (_req, res) => {
        const { body, contentType } = await this.metrics.exposition();
        send(res, contentType, body);
      },
      '/dashboard': (_req, res) => send(res, 'text/html; charset=utf-8', renderDashboard(data())),
      '/distil/dashboard.json': (_req, res) => send(res, 'application/json', JSON.stringify(data())),
      '/distil/shadow': (_req, res) => {
        this.#flushShadow();
        const stats = readShadowStats(this.#options.home);
        const interval = wilsonInterval(stats.diverged, stats.compared);
        const body = {
          sampleRate: this.#sampleRate(),
          thisRun: this.#ledger?.snapshot() ?? null,
          ...stats,
          interval,
        };
        send(res, 'application/json', JSON.stringify(body));
      },
    };
  }

  /** Lets shadow comparisons still running finish (up to `graceMs`) and writes the shadow record. */
  async close(graceMs = 5000): Promise<void> {
    await this.shadow?.close(graceMs);
    this.#flushShadow();
  }

  #sampleRate(): number {
    return this.shadow ? (this.#options.shadow?.sampleRate ?? 0) : 0;
  }

  #flushShadow(): void {
    try {
      this.#ledger?.flush();
    } catch (error) {
      this.#options.log(
        `could not write the shadow record: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
