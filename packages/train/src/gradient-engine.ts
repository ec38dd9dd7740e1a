import type { TokenBatch } from './bert-forward.js';
import type { BertParams } from './bert-params.js';
import { batchGradients, batchKeepProbabilities } from './gradient-step.js';
import { type BackendPreference, ensureBackend } from './tfjs-runtime.js';

/** The summed gradient of several batches and what went into it. */
export interface StepGradients {
  /** Sum of the batches' gradients of their summed token loss (flat parameter layout). */
  readonly grad: Float32Array;
  readonly lossSum: number;
  readonly weightSum: number;
  readonly tokens: number;
}

/**
 * Computes gradients and predictions for a model whose parameters the caller owns. One implementation
 * runs on this thread; `WorkerGradientEngine` spreads batches over worker threads (one per core).
 */
export interface GradientEngine {
  /** How many batches one `gradients` call can work on at once. */
  readonly parallelism: number;
  /** Name of the tfjs backend doing the work. */
  readonly backend: string;
  /** Sums the gradients of `batches` (at most `parallelism` of them) for `params`. */
  gradients(params: BertParams, batches: readonly TokenBatch[], keepWeight: number): Promise<StepGradients>;
  /** Per-position keep-probabilities of each batch, row-major [rows, seqLen]. */
  keepProbabilities(params: BertParams, batches: readonly TokenBatch[]): Promise<Float32Array[]>;
  /** Releases threads and memory. */
  close(): Promise<void>;
}

/** Runs everything on the calling thread: for tests, tiny models, and one-core machines. */
export class InProcessGradientEngine implements GradientEngine {
  readonly parallelism = 1;
  #scratch: Float32Array | undefined;

  private constructor(readonly backend: string) {}

  /** Selects the tfjs backend (see `ensureBackend`) and returns an engine on this thread. */
  static async start(preference: BackendPreference = 'auto'): Promise<InProcessGradientEngine> {
    return new InProcessGradientEngine(await ensureBackend(preference));
  }

  async gradients(
    params: BertParams,
    batches: readonly TokenBatch[],
    keepWeight: number,
  ): Promise<StepGradients> {
    const grad = new Float32Array(params.count);
    if (this.#scratch?.length !== params.count) this.#scratch = new Float32Array(params.count);
    const scratch = this.#scratch;
    let lossSum = 0;
    let weightSum = 0;
    let tokens = 0;
    for (const batch of batches) {
      const r = batchGradients(params, batch, keepWeight, scratch);
      for (let i = 0; i < grad.length; i++) grad[i] = (grad[i] as number) + (scratch[i] as number);
      lossSum += r.lossSum;
      weightSum += r.weightSum;
      tokens += r.tokens;
    }
    return { grad, lossSum, weightSum, tokens };
  }

  async keepProbabilities(params: BertParams, batches: readonly TokenBatch[]): Promise<Float32Array[]> {
    return batches.map((batch) => batchKeepProbabilities(params, batch));
  }

  async close(): Promise<void> {}
}
