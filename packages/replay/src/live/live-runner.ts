import type { Block, Decision } from '@distil/contract';
import type { Replayed, ReplayTurn, Runner } from '../runner.js';
import { type PostOptions, postJson } from './post-json.js';
import { ResponseCache } from './response-cache.js';
import { renderTranscript, type Transcript } from './transcript.js';

/** Options every live runner takes. */
export interface LiveRunnerOptions {
  readonly apiKey: string;
  /** Model id (default: the runner's). */
  readonly model?: string;
  /** API base URL (default: the provider's public endpoint). */
  readonly baseUrl?: string;
  /** Folder of the response cache; null turns caching off (default: no cache). */
  readonly cacheFolder?: string | null;
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number;
  /** Longest answer asked for, in tokens (default 1024). */
  readonly maxTokens?: number;
  /** Retry policy of the HTTP calls. */
  readonly retry?: Omit<PostOptions, 'label'>;
}

/** A request as a live runner sends it. */
export interface WireRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** Provider tool names: `[A-Za-z0-9_-]{1,64}` in both APIs; others are mapped to a safe, unique name. */
export class ToolNames {
  readonly wire = new Map<string, string>();
  readonly original = new Map<string, string>();

  constructor(tools: readonly string[]) {
    for (const tool of tools) {
      let name = tool.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
      for (let n = 2; this.original.has(name); n++) name = `${name.slice(0, 58)}_${n}`;
      this.wire.set(tool, name);
      this.original.set(name, tool);
    }
  }

  /** The trajectory's name for a tool the model called (unknown names are kept as sent). */
  back(name: string): string {
    return this.original.get(name) ?? name;
  }
}

/**
 * What live runners share: render the context as a transcript, build the provider's request at
 * temperature 0, answer from the content-hash cache when the same request was made before, else call the
 * API and read the decision out of the answer. Counts calls and cache hits for the report.
 */
export abstract class LiveRunner implements Runner {
  abstract readonly id: string;
  readonly concurrency: number;
  readonly basis = 'the model decided the same';
  /** The decisions are a model's own answers on the changed context: its verdicts certify. */
  readonly certifies = true;
  /** HTTP calls made. */
  calls = 0;
  /** Decisions answered from the cache. */
  cacheHits = 0;
  private readonly cache: ResponseCache | null;

  constructor(
    protected readonly options: LiveRunnerOptions,
    private readonly label: string,
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.cache = options.cacheFolder ? new ResponseCache(options.cacheFolder) : null;
  }

  /** The provider request for a transcript. */
  protected abstract request(transcript: Transcript, tools: ToolNames): WireRequest;

  /** The decision in a provider answer. */
  protected abstract decision(answer: unknown, tools: ToolNames): Decision;

  /** What the model decides on `context` (see renderTranscript for how the context is shown). */
  async decide(context: readonly Block[], turn: ReplayTurn): Promise<Replayed> {
    const tools = new ToolNames(turn.tools);
    const wire = this.request(renderTranscript(context, turn), tools);
    // The key covers everything that decides the answer and nothing secret: not the headers.
    const key = ResponseCache.keyOf({ url: wire.url, body: wire.body });
    const cached = this.cache?.get(key);
    if (cached !== undefined) {
      this.cacheHits++;
      return { kind: 'decision', decision: cached };
    }
    this.calls++;
    const answer = await postJson(wire.url, wire.headers, wire.body, {
      ...this.options.retry,
      label: this.label,
    });
    const decision = this.decision(answer, tools);
    this.cache?.put(key, decision);
    return { kind: 'decision', decision };
  }
}

/** `base` without a trailing slash, joined to `path`. */
export function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
