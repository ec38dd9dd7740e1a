import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BertDims } from './bert-config.js';
import type { TokenBatch } from './bert-forward.js';
import type { BertParams } from './bert-params.js';
import type { GradientEngine, StepGradients } from './gradient-engine.js';
import type { GradientWorkerInit, GradientWorkerReply, GradientWorkerRequest } from './gradient-worker.js';
import type { BackendPreference } from './tfjs-runtime.js';

interface Pending {
  resolve(reply: GradientWorkerReply): void;
  reject(error: Error): void;
}

/** One worker thread and the shared buffer it writes its gradients into. */
class GradientWorker {
  readonly grad: Float32Array;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #failure: Error | undefined;

  constructor(init: GradientWorkerInit) {
    this.grad = new Float32Array(init.grad);
    const here = import.meta.url;
    // From source (workspace, tests) the entry is TypeScript and a bootstrap registers tsx in the thread.
    const fromSource = here.endsWith('.ts');
    const entry = new URL(fromSource ? './gradient-worker.ts' : './gradient-worker.js', here);
    this.#worker = fromSource
      ? new Worker(new URL('./worker-bootstrap.mjs', here), { workerData: { entry: entry.href, init } })
      : new Worker(entry, { workerData: { init } });
    this.#worker.on('message', (reply: GradientWorkerReply) => {
      const id = reply.type === 'ready' ? -1 : reply.id;
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      if (reply.type === 'error') pending.reject(new Error(`training worker: ${reply.message}`));
      else pending.resolve(reply);
    });
    const fail = (error: Error) => {
      this.#failure = error;
      for (const p of this.#pending.values()) p.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', (error) => fail(new Error(`training worker crashed: ${error.message}`)));
    this.#worker.on('exit', (code) => fail(new Error(`training worker exited (code ${code})`)));
  }

  ready(): Promise<GradientWorkerReply> {
    return new Promise((resolve, reject) => this.#pending.set(-1, { resolve, reject }));
  }

  request(make: (id: number) => GradientWorkerRequest): Promise<GradientWorkerReply> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage(make(id));
    });
  }

  async terminate(): Promise<void> {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
  }
}

/**
 * Data-parallel training on worker threads (one tfjs wasm instance each, so one core each). Every step,
 * the caller's parameters are copied once into shared memory, each worker takes one batch and writes its
 * gradient into its own shared buffer, and the engine sums them: synchronous data parallelism, exactly
 * equal to one batch of all the workers' lines.
 */
export class WorkerGradientEngine implements GradientEngine {
  readonly #params: Float32Array;

  private constructor(
    readonly backend: string,
    readonly parallelism: number,
    sharedParams: SharedArrayBuffer,
    readonly workers: readonly GradientWorker[],
  ) {
    this.#params = new Float32Array(sharedParams);
  }

  /** Starts `threads` workers (default: one per core, at most 2 unless asked) for a model of `dims`. */
  static async start(
    dims: BertDims,
    paramCount: number,
    threads = Math.min(2, availableParallelism()),
    backend: BackendPreference = 'auto',
  ): Promise<WorkerGradientEngine> {
    const shared = new SharedArrayBuffer(paramCount * 4);
    const workers = Array.from(
      { length: threads },
      () =>
        new GradientWorker({ dims, params: shared, grad: new SharedArrayBuffer(paramCount * 4), backend }),
    );
    try {
      const replies = await Promise.all(workers.map((w) => w.ready()));
      const first = replies[0];
      const name = first?.type === 'ready' ? first.backend : 'unknown';
      return new WorkerGradientEngine(name, threads, shared, workers);
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
  }

  async gradients(
    params: BertParams,
    batches: readonly TokenBatch[],
    keepWeight: number,
  ): Promise<StepGradients> {
    if (batches.length > this.workers.length) throw new Error('more batches than workers in one step');
    this.#params.set(params.data);
    const replies = await Promise.all(
      batches.map((batch, i) =>
        (this.workers[i] as GradientWorker).request((id) => ({ type: 'grad', id, batch, keepWeight })),
      ),
    );
    const grad = new Float32Array(params.count);
    let lossSum = 0;
    let weightSum = 0;
    let tokens = 0;
    replies.forEach((reply, i) => {
      if (reply.type !== 'grad') return;
      const g = (this.workers[i] as GradientWorker).grad;
      for (let j = 0; j < grad.length; j++) grad[j] = (grad[j] as number) + (g[j] as number);
      lossSum += reply.lossSum;
      weightSum += reply.weightSum;
      tokens += reply.tokens;
    });
    return { grad, lossSum, weightSum, tokens };
  }

  async keepProbabilities(params: BertParams, batches: readonly TokenBatch[]): Promise<Float32Array[]> {
    this.#params.set(params.data);
    const out: Float32Array[] = new Array(batches.length);
    // Each worker walks its own share of the batches, so a slow batch does not stall the other thread.
    await Promise.all(
      this.workers.map(async (worker, w) => {
        for (let b = w; b < batches.length; b += this.workers.length) {
          const reply = await worker.request((id) => ({
            type: 'predict',
            id,
            batch: batches[b] as TokenBatch,
          }));
          if (reply.type === 'predict') out[b] = reply.probs;
        }
      }),
    );
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
