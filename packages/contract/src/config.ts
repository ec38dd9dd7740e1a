import { z } from 'zod';

const fallback = z
  .literal('salience')
  .optional()
  .describe('on a load failure, log the reason and use the salience rules instead of failing');

/** Which KeepModel scores lines. One field swaps it; a load failure is an error unless `fallback` is set. */
export const KeepModelConfig = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('salience'), fallback }).strict(),
    z
      .object({
        type: z.literal('logistic'),
        /** Weights JSON written by `distil train`; default: the weights shipped in @distil/codec. */
        weights: z.string().min(1).optional(),
        fallback,
      })
      .strict(),
    z
      .object({
        type: z.literal('transformer'),
        /** Model folder (config.json, tokenizer.json, onnx/model.onnx); default: the bundled demo model. */
        model: z.string().min(1).optional(),
        fallback,
      })
      .strict(),
  ],
  { error: () => 'expected type to be one of "salience" | "logistic" | "transformer"' },
);
export type KeepModelConfig = z.infer<typeof KeepModelConfig>;

/** Where folded originals are kept. */
export const RestoreStoreConfig = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('memory') }).strict(),
    z
      .object({
        type: z.literal('disk'),
        /** Folder of the store; default `$DISTIL_HOME/store`. */
        path: z.string().min(1).optional(),
        /** Evict oldest originals once the store exceeds this many bytes (default 1 GiB). */
        maxBytes: z
          .number()
          .int()
          .positive()
          .default(1024 ** 3),
        /** Evict originals not read or written for this many days (default 30). */
        maxAgeDays: z.number().positive().default(30),
      })
      .strict(),
    z
      .object({
        type: z.literal('redis'),
        url: z.string().regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL'),
        /** Expire originals after this many seconds of no use (default 7 days). */
        ttlSeconds: z
          .number()
          .int()
          .positive()
          .default(7 * 24 * 3600),
      })
      .strict(),
  ],
  { error: () => 'expected type to be one of "memory" | "disk" | "redis"' },
);
export type RestoreStoreConfig = z.infer<typeof RestoreStoreConfig>;

/** Prices in US dollars per million tokens, and the shortest prompt the provider will cache. */
export const ModelPrice = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheWrite5m: z.number().nonnegative(),
    cacheWrite1h: z.number().nonnegative(),
    cacheRead: z.number().nonnegative(),
    minCacheableTokens: z.number().int().nonnegative(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPrice>;

export const PricingConfig = z
  .object({
    /** Model whose prices `distil savings` and the proxy's estimates use by default. */
    model: z.string().min(1).default('claude-sonnet-4-5'),
    /** Extra or overriding models, merged over the shipped catalog. */
    models: z.record(z.string().min(1), ModelPrice).default({}),
  })
  .strict();
export type PricingConfig = z.infer<typeof PricingConfig>;

/** Knobs of the reversible tier. */
export const TierConfig = z
  .object({
    /** Lines always kept at the start of a folded block (default 8). */
    headLines: z.number().int().nonnegative().default(8),
    /** Lines always kept at the end of a folded block (default 12). */
    tailLines: z.number().int().nonnegative().default(12),
    /** Keep a line when its KeepModel score is at least this (default 0.6). */
    keepThreshold: z.number().min(0).max(1).default(0.6),
    /** Blocks with fewer lines than this are never folded (default 40). */
    minLines: z.number().int().positive().default(40),
  })
  .strict();
export type TierConfig = z.infer<typeof TierConfig>;

const url = z.string().regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL');

export const ProxyConfig = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8788),
    anthropicUpstream: url.default('https://api.anthropic.com'),
    openaiUpstream: url.default('https://api.openai.com'),
    /** Required to bind anywhere but loopback; then it guards every non-provider endpoint. */
    adminToken: z.string().min(16, 'an admin token needs at least 16 characters').optional(),
    /** Largest request body accepted, in bytes (default 32 MiB). */
    maxBodyBytes: z
      .number()
      .int()
      .positive()
      .default(32 * 1024 ** 2),
    /** Most distil_expand round trips the proxy answers itself within one request (default 5). */
    expandLoopCap: z.number().int().min(0).max(50).default(5),
    /** Tool names whose results are never compressed. */
    excludeTools: z.array(z.string().min(1)).default([]),
    /**
     * Fraction of requests also sent uncompressed to detect divergence (default 0: off). A shadow request
     * shares no cached prefix with the compressed ones, so each costs a whole cache write: on replayed real
     * Claude Code sessions one sampled request added 20–30% to its session's bill (`pnpm bench:savings`).
     */
    shadowSampleRate: z.number().min(0).max(1).default(0),
    /**
     * After the restore store fails (down, read-only), how long the proxy forwards requests untouched
     * without asking it again, in milliseconds (default 5000; 0 asks on every request). Spares every
     * request of the outage the store client's retry delays; compression resumes on the first request after.
     */
    storeRetryMs: z.number().int().min(0).max(600_000).default(5000),
    /**
     * Longest silence on an upstream response, in milliseconds, before the proxy ends the client's reply
     * with the provider's error (default 120000). Applies to the wait for the headers and between body
     * chunks; a model that streams keeps it from firing.
     */
    idleTimeoutMs: z.number().int().min(100).max(3_600_000).default(120_000),
    /**
     * Connections the proxy opens to one upstream origin at most (default 1024). A streamed reply holds
     * its connection for minutes; a pool smaller than a team's concurrent streams makes every other
     * request, a pass-through `GET /v1/models` included, wait behind them.
     */
    upstreamConnections: z.number().int().min(1).max(65_536).default(1024),
    /**
     * Most worker threads that compress large new tool outputs off the request path (default: one fewer
     * than the cores; 0 compresses in the proxy's own thread). A new 200 KB tool result otherwise holds
     * every concurrent request back while it is compressed. Workers start as blocks need them and leave
     * after five idle minutes.
     */
    compressWorkers: z.number().int().min(0).max(256).optional(),
    /**
     * Conversations the proxy remembers at most (default 1024); the least recently used is forgotten
     * beyond this, and its next request is encoded afresh (same bytes for what it had sent, no savings
     * from references to it).
     */
    maxSessions: z.number().int().min(1).max(1_000_000).default(1024),
    /**
     * Conversations that keep their original texts between requests (default 64). The others sleep,
     * holding what they sent (deflated) and the digests of what it stood for, ~35 KB for a 200 KB
     * conversation against ~250 KB awake, and wake from the texts their next request resends (~4 ms
     * more for that request, 200 KB). 0: every conversation sleeps between its requests.
     */
    awakeSessions: z.number().int().min(0).max(1_000_000).default(64),
  })
  .strict();
export type ProxyConfig = z.infer<typeof ProxyConfig>;

/** The whole of `distil.config.json`. Every section is optional; defaults are shown by `distil config check`. */
export const DistilConfig = z
  .object({
    $schema: z.string().optional(),
    keepModel: KeepModelConfig.default({ type: 'salience' }),
    restoreStore: RestoreStoreConfig.default({ type: 'disk', maxBytes: 1024 ** 3, maxAgeDays: 30 }),
    pricing: PricingConfig.default({ model: 'claude-sonnet-4-5', models: {} }),
    tiers: TierConfig.default({ headLines: 8, tailLines: 12, keepThreshold: 0.6, minLines: 40 }),
    proxy: ProxyConfig.default(() => ProxyConfig.parse({})),
  })
  .strict();
export type DistilConfig = z.infer<typeof DistilConfig>;
export type DistilConfigInput = z.input<typeof DistilConfig>;
