import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadKeepModel } from '@distil/codec';
import {
  DistilConfig,
  type DistilConfigInput,
  type KeepModel,
  ProxyConfig,
  parseOrThrow,
  type RestoreStore,
} from '@distil/contract';
import { countTokens, diskStoreOptions, distilHome, openRestoreStore } from '@distil/core';
import { z } from 'zod';
import { RewriteMemory } from './context/last-rewrite.js';
import { guardKeepModel, guardStore } from './fail-open/part-failure.js';
import { createUpstreamAgent } from './http/upstream.js';
import { LiteralCache } from './json/literal-cache.js';
import { SubtreeMemo } from './json/subtree-memo.js';
import { ExpandLearning } from './operate/expand-learning.js';
import { ProxyOperations } from './operate/proxy-operations.js';
import type { ShadowOptions } from './operate/shadow/shadow-sampler.js';
import { CompressPool, defaultCompressWorkers } from './pool/compress-pool.js';
import { SyncsOwed, stagesPuts } from './pool/syncs-owed.js';
import type { ProxyRuntime } from './runtime.js';
import { type RequestSavings, SavingsLedger, type SavingsTotals } from './savings/savings-ledger.js';
import { builtInAdminRoutes } from './server/admin-routes.js';
import { checkBind } from './server/bind-policy.js';
import { createRequestHandler } from './server/request-handler.js';
import type { AdminHandler } from './server/routes.js';
import { SessionTable, type SessionTableLimits } from './session/session-table.js';

/** How to start a proxy. Every field is optional; `config` is a whole `distil.config.json`. */
export interface StartProxyOptions {
  /** The Distil config (validated here); its `proxy` section, keep model, store, tiers and pricing apply. */
  readonly config?: DistilConfig | DistilConfigInput;
  /** Override `proxy.host` (default 127.0.0.1). */
  readonly host?: string;
  /** Override `proxy.port` (default 8788; 0 picks a free port). */
  readonly port?: number;
  readonly anthropicUpstream?: string;
  readonly openaiUpstream?: string;
  /** A RestoreStore to use instead of opening `config.restoreStore` (the caller then closes it). */
  readonly store?: RestoreStore;
  /**
   * A KeepModel to use instead of loading `config.keepModel`. Such an object lives in this thread only,
   * so with it every block is compressed in-thread (no compress workers).
   */
  readonly keepModel?: KeepModel;
  /** Override `proxy.compressWorkers` (0: compress in the proxy's own thread). */
  readonly compressWorkers?: number;
  /**
   * The compress worker's file, for a program that bundles the proxy into files of its own (default:
   * `compress-worker.js` beside the proxy's code). Node flags the worker needs go in `execArgv`
   * (default: the proxy's own, inherited).
   */
  readonly compressWorkerScript?: { readonly filename: string; readonly execArgv?: readonly string[] };
  /** Where log lines go (default stderr). Lines never carry request content or credentials. */
  readonly log?: (line: string) => void;
  /** Distil home: the default disk store, shadow records, learned statistics (default `distilHome()`). */
  readonly home?: string;
  /** Extra endpoints of Distil's own (e.g. `/metrics`), guarded like `/distil/*`. */
  readonly adminRoutes?: Readonly<Record<string, AdminHandler>>;
  /** Called after every provider request with its content-free savings record. */
  readonly onRequest?: (savings: RequestSavings) => void;
  /**
   * Where recent conversations' last requests are kept, so that the next request of each is read and
   * rewritten only where it is new (see context/last-rewrite.ts; default: up to 12 MiB of them; a
   * `RewriteMemory` of 0 bytes reads every request whole).
   */
  readonly rewriteMemory?: RewriteMemory;
  /** Override `proxy.maxSessions` and `proxy.awakeSessions`, and how long an unused session is kept. */
  readonly sessionLimits?: Partial<SessionTableLimits>;
  /**
   * Shadow mode: `true` samples `proxy.shadowSampleRate` of the requests (config default 0: none), an object
   * sets the rate (and the random source) itself. Default off, so an embedding program never sends
   * requests it did not ask for; `distil wrap` turns it on.
   */
  readonly shadow?: boolean | ShadowOptions;
  /**
   * The expand flywheel (default on): answered expands and the digests they undo are counted under
   * `home`, and signatures the learned policy protects are sent byte-exact. Off for benchmarks and
   * simulations, whose expands are no agent's evidence.
   */
  readonly learn?: boolean;
}

/** A running proxy. */
export interface RunningProxy {
  /** `http://host:port`, the base URL for Anthropic clients (OpenAI clients add `/v1`). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Savings totals so far, from billed usage. */
  savings(): SavingsTotals;
  /** Stops listening, ends open connections and releases the store it opened. */
  close(): Promise<void>;
}

/** Longest wait for the compress workers at start (a transformer keep model loads in each). */
const POOL_START_WAIT_MS = 10_000;

const Overrides = z.object({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  anthropicUpstream: z.string().optional(),
  openaiUpstream: z.string().optional(),
  compressWorkers: z.number().int().min(0).max(256).optional(),
});

/**
 * Starts a proxy in this process. The keep model falls back to the salience rules when the configured
 * one fails to load (the reason is logged), so the proxy always starts. Refuses to listen beyond
 * loopback without `proxy.adminToken`.
 */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const log = options.log ?? ((line: string) => process.stderr.write(`distil proxy: ${line}\n`));
  const config = parseOrThrow(DistilConfig, options.config ?? {}, 'config');
  const overrides = parseOrThrow(
    Overrides,
    {
      host: options.host,
      port: options.port,
      anthropicUpstream: options.anthropicUpstream,
      openaiUpstream: options.openaiUpstream,
      compressWorkers: options.compressWorkers,
    },
    'proxy options',
  );
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  const proxy = parseOrThrow(ProxyConfig, { ...config.proxy, ...defined }, 'proxy options');
  checkBind(proxy.host, proxy.adminToken);

  const ownedStore = options.store ? null : await openRestoreStore(config.restoreStore, options.home);
  const opened = options.store ?? ownedStore!;
  // A disk store's records are put in place before the request goes upstream and fsynced while it is
  // there; the reply waits for them (syncs-owed.ts).
  const syncs = new SyncsOwed(log);
  // Every failure of the store or the keep model is tagged, so the request path can stand aside for it.
  const store = guardStore(stagesPuts(opened) ? syncs.staging(opened) : opened, proxy.storeRetryMs);
  const loaded =
    options.keepModel ?? (await loadKeepModel({ ...config.keepModel, fallback: 'salience' }, log));
  // The configured model failed to load and the rules run instead: said in the log and in /distil/health.
  const keepModelFallback =
    !options.keepModel && config.keepModel.type !== 'salience' && loaded.id === 'salience';
  const keepModel = guardKeepModel(loaded);
  // Workers rebuild the keep model from its config: the one that loaded here (the rules after a
  // fallback). A KeepModel object handed in cannot cross to a worker, so it keeps compression here.
  const pool = new CompressPool({
    size: options.keepModel ? 0 : (proxy.compressWorkers ?? defaultCompressWorkers()),
    keepModel: keepModelFallback ? { type: 'salience' } : config.keepModel,
    tiers: config.tiers,
    ...(options.compressWorkerScript && { script: options.compressWorkerScript }),
    // a store this proxy opened on disk: its workers write the originals there themselves
    ...(!options.store &&
      config.restoreStore.type === 'disk' && {
        diskStore: diskStoreOptions(config.restoreStore, options.home),
        syncs,
      }),
    log,
  });
  // The first worker starts beside the rest; the proxy listens once it answered (or after a bound,
  // compressing in-thread until it does), so its first large block already leaves the event loop.
  await Promise.race([pool.ready, sleep(POOL_START_WAIT_MS, undefined, { ref: false })]);
  // The o200k table is built now, not by the first request's count (~0.1 s here): a pool already built
  // it for its workers, and without one the first request would wait for it.
  countTokens('');
  const agent = createUpstreamAgent(proxy.idleTimeoutMs, proxy.upstreamConnections);
  const ledger = new SavingsLedger(config.pricing, keepModel.id);
  const home = options.home ?? distilHome();
  const learning = options.learn === false ? ExpandLearning.off() : ExpandLearning.open(home, log);
  const operations = new ProxyOperations({
    home,
    shadow:
      options.shadow === true
        ? { sampleRate: proxy.shadowSampleRate }
        : options.shadow
          ? options.shadow
          : null,
    agent,
    upstreamConnections: proxy.upstreamConnections,
    maxReplyBytes: proxy.maxBodyBytes,
    log,
    totals: () => ledger.totals(),
    policy: () => learning.policy(),
    keepModel: { id: keepModel.id, fallback: keepModelFallback },
  });
  ledger.onRecord((savings) => operations.recordRequest(savings));
  const sessions = new SessionTable(
    { keepModel, store, tiers: config.tiers, learning, pool },
    { maxSessions: proxy.maxSessions, awakeSessions: proxy.awakeSessions, ...options.sessionLimits },
  );
  operations.metrics.registerSessions(() => sessions.counts());
  if (options.onRequest) ledger.onRecord(options.onRequest);
  const rt: ProxyRuntime = {
    config: proxy,
    pricing: config.pricing,
    // The expand loop reads through a counting view of the store (expands per content class).
    store: operations.expandStore(store),
    putGrants: async (grants) => {
      const here = async () => {
        // in place here, and synced before the grant counts as written
        await syncs.syncedFor(await Promise.all(grants.map((grant) => store.put(grant))));
      };
      // a worker that failed to put them (one the pool added later whose store did not open, or a store
      // error) leaves them to this thread, whose store answers for itself
      await (pool.putInDiskStore(grants)?.catch(here) ?? here());
    },
    syncs,
    keepModel,
    agent,
    sessions,
    learning,
    ledger,
    excludedTools: new Set(proxy.excludeTools),
    literals: new LiteralCache(),
    subtrees: new SubtreeMemo(),
    rewrites: options.rewriteMemory ?? new RewriteMemory(),
    log,
    observe: operations.observe,
    onBypass: (reason) => operations.metrics.recordBypass(reason),
    keepModelFallback,
  };
  const adminRoutes = { ...builtInAdminRoutes(rt), ...operations.adminRoutes(), ...options.adminRoutes };
  const server = createServer(
    { keepAliveTimeout: 65_000, requestTimeout: 0 },
    createRequestHandler(rt, adminRoutes),
  );
  try {
    await listen(server, proxy.port, proxy.host);
  } catch (error) {
    await pool.close();
    await agent.close();
    await ownedStore?.close();
    await learning.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const hostInUrl = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${hostInUrl}:${port}`,
    host: proxy.host,
    port,
    savings: () => ledger.totals(),
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Streams still open are ended: a stopping proxy must not hang on a model that keeps talking.
        setTimeout(() => server.closeAllConnections(), 2000).unref();
        await closed;
        await learning.close();
        await operations.close();
        await pool.close();
        await agent.close();
        await ownedStore?.close();
      })();
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
