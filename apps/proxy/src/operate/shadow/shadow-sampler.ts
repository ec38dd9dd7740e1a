import type { Dispatcher } from 'undici';
import { forwardableHeaders } from '../../http/hop-by-hop.js';
import { sendUpstream, upstreamUrl } from '../../http/upstream.js';
import type { ObservedExchange } from '../exchange-observer.js';
import type { ProxyMetrics } from '../proxy-metrics.js';
import { divergence, REPLY_READERS, readReplyDecision } from './reply-decision.js';
import { ResponseCapture } from './response-capture.js';
import type { ShadowLedger, SkipReason } from './shadow-ledger.js';

/** Shadow mode settings. */
export interface ShadowOptions {
  /** Fraction of provider requests also sent uncompressed, in [0, 1] (config default 0.02). */
  readonly sampleRate: number;
  /** Uniform numbers in [0, 1) deciding which requests are sampled (default Math.random). */
  readonly random?: () => number;
}

/** What a sampler needs from the proxy it watches. */
export interface ShadowDeps {
  readonly agent: Dispatcher;
  readonly ledger: ShadowLedger;
  readonly metrics: ProxyMetrics;
  readonly log: (line: string) => void;
  /** Largest reply copied for comparison (default: the proxy's body limit). */
  readonly maxReplyBytes: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a provider request body, edited by field name
type Json = any;

/**
 * The request the client would have sent without Distil: its own body, as it came, asked for whole
 * (non-streamed) so the reply is one JSON body; a Responses request is not stored upstream (a shadow must
 * leave no trace in the client's account).
 */
function uncompressedTwin(route: string, request: Json): string {
  const twin = { ...request, stream: false };
  if (route === 'POST /v1/chat/completions') delete twin.stream_options;
  if (route === 'POST /v1/responses') twin.store = false;
  return JSON.stringify(twin);
}

/**
 * Shadow mode (a detector, not a gate): for a sampled fraction of requests, once the client has its
 * reply, the client's uncompressed request is sent upstream too, non-streamed, and the two decisions are
 * compared — tool name + normalised arguments, or the final text (@distil/replay's decisionKey). The
 * client's reply is never delayed or changed; the shadow starts after it ended. A Responses request that
 * continues a stored response (`previous_response_id`) is skipped: the provider's copy of its history is
 * the compressed one, so there is no uncompressed twin to send.
 */
export class ShadowSampler {
  readonly #rate: number;
  readonly #random: () => number;
  readonly #inflight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #closing = false;

  constructor(
    options: ShadowOptions,
    private readonly deps: ShadowDeps,
  ) {
    this.#rate = options.sampleRate;
    this.#random = options.random ?? Math.random;
  }

  /** The exchange observer: samples, and arranges the comparison for when the reply has gone out. */
  observe(exchange: ObservedExchange): void {
    if (this.#rate <= 0 || this.#closing || !Object.hasOwn(REPLY_READERS, exchange.route)) return;
    if (!(this.#random() < this.#rate)) return;
    this.deps.ledger.sampled();
    const capture = new ResponseCapture(exchange.res, this.deps.maxReplyBytes);
    exchange.res.once('close', () => {
      const task = this.#compare(exchange, capture).catch((error: unknown) => {
        if (this.#abort.signal.aborted) return this.#skip(exchange, 'closed');
        this.deps.log(`shadow comparison failed: ${error instanceof Error ? error.message : String(error)}`);
        this.#skip(exchange, 'shadow_failed');
      });
      this.#inflight.add(task);
      void task.finally(() => this.#inflight.delete(task));
    });
  }

  /** Stops sampling, lets running comparisons finish for up to `graceMs`, then abandons the rest. */
  async close(graceMs = 5000): Promise<void> {
    this.#closing = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.#inflight]), timeout]);
    clearTimeout(timer);
    this.#abort.abort();
    await Promise.allSettled([...this.#inflight]);
  }

  async #compare(exchange: ObservedExchange, capture: ResponseCapture): Promise<void> {
    const { res, route } = exchange;
    if (!res.writableFinished) return this.#skip(exchange, 'closed');
    if (res.statusCode !== 200) return this.#skip(exchange, 'not_ok');
    if (capture.overflowed) return this.#skip(exchange, 'too_large');
    let request: Json;
    try {
      request = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return this.#skip(exchange, 'not_json');
    }
    if (typeof request !== 'object' || request === null || Array.isArray(request))
      return this.#skip(exchange, 'not_json');
    if (route === 'POST /v1/responses' && request.previous_response_id)
      return this.#skip(exchange, 'continuation');
    const compressed = readReplyDecision(route, capture.bytes());
    if (!compressed) return this.#skip(exchange, 'unreadable_reply');

    const headers = forwardableHeaders(exchange.headers, {
      dropFraming: true,
      dropDistil: true,
      drop: ['accept-encoding'],
    });
    headers['accept-encoding'] = 'identity';
    const upstream = await sendUpstream(this.deps.agent, {
      method: 'POST',
      url: upstreamUrl(exchange.upstreamBase, exchange.target),
      headers,
      body: uncompressedTwin(route, request),
      signal: this.#abort.signal,
    });
    const reply = Buffer.from(await upstream.body.arrayBuffer());
    if (upstream.status !== 200) return this.#skip(exchange, 'shadow_failed');
    const reference = readReplyDecision(route, reply);
    if (!reference) return this.#skip(exchange, 'shadow_failed');

    const diverged = divergence(reference, compressed);
    const endpoint = route.slice(route.indexOf(' ') + 1);
    const model = typeof request.model === 'string' ? request.model.slice(0, 200) : '(unknown)';
    this.deps.ledger.compared(endpoint, model, diverged);
    this.deps.metrics.recordShadow(endpoint, diverged ? 'diverged' : 'agreed');
  }

  #skip(exchange: ObservedExchange, reason: SkipReason): void {
    this.deps.ledger.skipped(reason);
    this.deps.metrics.recordShadow(exchange.route.slice(exchange.route.indexOf(' ') + 1), 'skipped');
  }
}
