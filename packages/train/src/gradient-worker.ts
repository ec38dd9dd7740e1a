/**
 * Worker-thread entry of WorkerGradientEngine. Parameters are read from a SharedArrayBuffer the main
 * thread writes between steps; gradients are written into this worker's own shared buffer, so a step
 * moves only the batch and a few numbers through messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BertDims } from './bert-config.js';
import type { TokenBatch } from './bert-forward.js';
import { BertParams } from './bert-params.js';
import { batchGradients, batchKeepProbabilities } from './gradient-step.js';
import { type BackendPreference, ensureBackend } from './tfjs-runtime.js';

/** What the main thread hands a worker at start. */
export interface GradientWorkerInit {
  readonly dims: BertDims;
  readonly params: SharedArrayBuffer;
  readonly grad: SharedArrayBuffer;
  readonly backend: BackendPreference;
}

/** Requests a worker answers, one at a time. */
export type GradientWorkerRequest =
  | { readonly type: 'grad'; readonly id: number; readonly batch: TokenBatch; readonly keepWeight: number }
  | { readonly type: 'predict'; readonly id: number; readonly batch: TokenBatch };

/** Answers, matched to requests by id. */
export type GradientWorkerReply =
  | { readonly type: 'ready'; readonly backend: string }
  | {
      readonly type: 'grad';
      readonly id: number;
      readonly lossSum: number;
      readonly weightSum: number;
      readonly tokens: number;
    }
  | { readonly type: 'predict'; readonly id: number; readonly probs: Float32Array }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

const port = parentPort;
if (!port) throw new Error('gradient-worker must run in a worker thread');
const init = (workerData as { init: GradientWorkerInit }).init;
const params = new BertParams(init.dims, new Float32Array(init.params));
const grad = new Float32Array(init.grad);
const backend = await ensureBackend(init.backend);

port.on('message', (request: GradientWorkerRequest) => {
  try {
    if (request.type === 'grad') {
      const r = batchGradients(params, request.batch, request.keepWeight, grad);
      const reply: GradientWorkerReply = { type: 'grad', id: request.id, ...r };
      port.postMessage(reply);
    } else {
      const probs = batchKeepProbabilities(params, request.batch);
      const reply: GradientWorkerReply = { type: 'predict', id: request.id, probs };
      port.postMessage(reply, [probs.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const reply: GradientWorkerReply = { type: 'error', id: request.id, message: (error as Error).message };
    port.postMessage(reply);
  }
});
port.postMessage({ type: 'ready', backend } satisfies GradientWorkerReply);
