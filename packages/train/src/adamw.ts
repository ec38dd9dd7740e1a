import type { BertParams } from './bert-params.js';

/** Optimiser settings. */
export interface AdamWOptions {
  /** Peak learning rate. */
  readonly learningRate: number;
  /** Decoupled weight decay, not applied to biases and LayerNorm (default 0.01). */
  readonly weightDecay?: number;
  readonly beta1?: number;
  readonly beta2?: number;
  readonly epsilon?: number;
  /** Global gradient-norm clip (default 1.0, as in BERT fine-tuning). */
  readonly clipNorm?: number;
}

/**
 * AdamW (Loshchilov & Hutter 2019) over a flat parameter buffer, in plain JS: the update is a few passes
 * over ~1–4 M floats per step, cheap next to the forward/backward pass, and keeping it outside tfjs means
 * the worker threads only compute gradients while one owner applies them.
 */
export class AdamW {
  readonly #m: Float32Array;
  readonly #v: Float32Array;
  readonly #decayMask: Uint8Array;
  #step = 0;

  constructor(
    params: BertParams,
    readonly options: AdamWOptions,
  ) {
    this.#m = new Float32Array(params.count);
    this.#v = new Float32Array(params.count);
    this.#decayMask = new Uint8Array(params.count);
    params.specs.forEach((spec, i) => {
      // As in BERT's optimiser: no weight decay on biases and LayerNorm parameters.
      const decays = spec.name.endsWith('.weight') && !spec.name.includes('LayerNorm');
      if (decays)
        this.#decayMask.fill(1, params.offsets[i], (params.offsets[i] as number) + params.view(i).length);
    });
  }

  /** Steps taken so far. */
  get steps(): number {
    return this.#step;
  }

  /**
   * Applies one update from `grad` (the mean gradient; modified in place by clipping) at learning rate
   * `lr`. Returns the gradient norm before clipping.
   */
  apply(params: BertParams, grad: Float32Array, lr: number): number {
    const { beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, weightDecay = 0.01, clipNorm = 1 } = this.options;
    let sq = 0;
    for (let i = 0; i < grad.length; i++) sq += (grad[i] as number) ** 2;
    const norm = Math.sqrt(sq);
    const scale = norm > clipNorm ? clipNorm / norm : 1;
    this.#step++;
    const c1 = 1 - beta1 ** this.#step;
    const c2 = 1 - beta2 ** this.#step;
    const w = params.data;
    const m = this.#m;
    const v = this.#v;
    const mask = this.#decayMask;
    for (let i = 0; i < w.length; i++) {
      const g = (grad[i] as number) * scale;
      const mi = beta1 * (m[i] as number) + (1 - beta1) * g;
      const vi = beta2 * (v[i] as number) + (1 - beta2) * g * g;
      m[i] = mi;
      v[i] = vi;
      let wi = w[i] as number;
      if (mask[i]) wi -= lr * weightDecay * wi;
      w[i] = wi - (lr * (mi / c1)) / (Math.sqrt(vi / c2) + epsilon);
    }
    return norm;
  }
}

/** Linear warm-up over the first `warmup` fraction of steps, then linear decay to 0 (BERT's schedule). */
export function linearSchedule(peak: number, totalSteps: number, warmup = 0.1): (step: number) => number {
  const warm = Math.max(1, Math.round(totalSteps * warmup));
  return (step) => {
    if (step < warm) return (peak * (step + 1)) / warm;
    return peak * Math.max(0, (totalSteps - step) / Math.max(1, totalSteps - warm));
  };
}
