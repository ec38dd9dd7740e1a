import type { BertDims } from './bert-config.js';

/** How a parameter starts before training: BERT's N(0, 0.02) for weights, zeros for biases, ones for gains. */
export type ParamInit = 'normal' | 'zeros' | 'ones';

/**
 * One parameter tensor. `name` is the HF BertForTokenClassification name, so a `model.safetensors` from
 * transformers maps onto it; `shape` is our layout, where a dense kernel is [in, out] (tfjs `matMul(x, W)`)
 * and `hfTransposed` says PyTorch stores it as [out, in].
 */
export interface ParamSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly init: ParamInit;
  readonly hfTransposed: boolean;
}

/** Every parameter of a BERT token classifier, in a fixed order (the flat buffer's order). */
export function bertParamSpecs(dims: BertDims): ParamSpec[] {
  const H = dims.hiddenSize;
  const I = dims.intermediateSize;
  const specs: ParamSpec[] = [];
  const add = (name: string, shape: number[], init: ParamInit, hfTransposed = false) =>
    specs.push({ name, shape, init, hfTransposed });
  const dense = (prefix: string, inSize: number, outSize: number) => {
    add(`${prefix}.weight`, [inSize, outSize], 'normal', true);
    add(`${prefix}.bias`, [outSize], 'zeros');
  };
  const layerNorm = (prefix: string) => {
    add(`${prefix}.weight`, [H], 'ones');
    add(`${prefix}.bias`, [H], 'zeros');
  };
  add('bert.embeddings.word_embeddings.weight', [dims.vocabSize, H], 'normal');
  add('bert.embeddings.position_embeddings.weight', [dims.maxPositions, H], 'normal');
  add('bert.embeddings.token_type_embeddings.weight', [dims.typeVocabSize, H], 'normal');
  layerNorm('bert.embeddings.LayerNorm');
  for (let l = 0; l < dims.numLayers; l++) {
    const p = `bert.encoder.layer.${l}`;
    dense(`${p}.attention.self.query`, H, H);
    dense(`${p}.attention.self.key`, H, H);
    dense(`${p}.attention.self.value`, H, H);
    dense(`${p}.attention.output.dense`, H, H);
    layerNorm(`${p}.attention.output.LayerNorm`);
    dense(`${p}.intermediate.dense`, H, I);
    dense(`${p}.output.dense`, I, H);
    layerNorm(`${p}.output.LayerNorm`);
  }
  dense('classifier', H, dims.numLabels);
  return specs;
}

/** All parameters in one Float32Array (cheap to copy between threads), with a view per tensor. */
export class BertParams {
  readonly specs: readonly ParamSpec[];
  readonly offsets: readonly number[];
  readonly data: Float32Array;
  readonly #index: Map<string, number>;

  constructor(
    readonly dims: BertDims,
    data?: Float32Array,
  ) {
    this.specs = bertParamSpecs(dims);
    const offsets: number[] = [];
    let total = 0;
    for (const spec of this.specs) {
      offsets.push(total);
      total += spec.shape.reduce((a, b) => a * b, 1);
    }
    this.offsets = offsets;
    if (data && data.length !== total) {
      throw new Error(`parameter buffer holds ${data.length} floats, the model needs ${total}`);
    }
    this.data = data ?? new Float32Array(total);
    this.#index = new Map(this.specs.map((s, i) => [s.name, i]));
  }

  /** Number of scalar parameters. */
  get count(): number {
    return this.data.length;
  }

  /** The view of parameter `i` (shares memory with `data`). */
  view(i: number): Float32Array {
    const spec = this.specs[i] as ParamSpec;
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const start = this.offsets[i] as number;
    return this.data.subarray(start, start + size);
  }

  /** The view of the parameter called `name`. */
  viewOf(name: string): Float32Array {
    const i = this.#index.get(name);
    if (i === undefined) throw new Error(`no parameter named ${name}`);
    return this.view(i);
  }

  /** Index of the parameter called `name`, or undefined. */
  indexOf(name: string): number | undefined {
    return this.#index.get(name);
  }

  /** A deep copy. */
  clone(): BertParams {
    return new BertParams(this.dims, this.data.slice());
  }
}

/** mulberry32: a tiny seeded PRNG, so initialisation is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random initialisation as HF's BertPreTrainedModel does it: weights ~ N(0, 0.02), biases 0, LayerNorm
 * gains 1, and the [PAD] embedding row zero. Deterministic for a seed.
 */
export function initBertParams(dims: BertDims, seed = 42, padId = 0): BertParams {
  const params = new BertParams(dims);
  const random = seededRandom(seed);
  const normal = () => {
    // Box–Muller; 1 - u keeps the log away from 0.
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  params.specs.forEach((spec, i) => {
    const view = params.view(i);
    if (spec.init === 'ones') view.fill(1);
    else if (spec.init === 'normal') for (let j = 0; j < view.length; j++) view[j] = 0.02 * normal();
  });
  params
    .viewOf('bert.embeddings.word_embeddings.weight')
    .fill(0, padId * dims.hiddenSize, (padId + 1) * dims.hiddenSize);
  return params;
}
