/**
 * Builds small BERT token classifiers for tests and benchmarks: random weights from a seeded generator, the
 * same network written as an ONNX graph with onnx-proto (IR 8, opset 17, float32 initializers), a plain
 * JavaScript forward pass to check onnxruntime's answers against, and a model folder in the Hugging Face
 * layout (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx).
 *
 * The graph is the standard BERT encoder (Devlin et al. 2019): word + position + token-type embeddings,
 * LayerNorm, then per layer multi-head self-attention with the additive mask (1 − mask) × −10000, a residual
 * LayerNorm, a GELU feed-forward (the exact erf form) and a second residual LayerNorm; then a linear
 * classifier per token. It uses only ops onnxruntime-node 1.30 runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { bertTokenizerJson, tinyVocab } from './bert-tokenizer-json.test-helper.js';

export { bertTokenizerJson, tinyVocab };

const { onnx } = onnxProto;

/** Sizes of a BERT token classifier. */
export interface BertDims {
  readonly vocab: number;
  readonly hidden: number;
  readonly heads: number;
  readonly intermediate: number;
  readonly layers: number;
  readonly maxPositions: number;
  readonly labels: number;
}

/** Weights of one encoder layer; matrices are row-major [in, out]. */
export interface BertLayerWeights {
  readonly wq: Float32Array;
  readonly bq: Float32Array;
  readonly wk: Float32Array;
  readonly bk: Float32Array;
  readonly wv: Float32Array;
  readonly bv: Float32Array;
  readonly wo: Float32Array;
  readonly bo: Float32Array;
  readonly ln1g: Float32Array;
  readonly ln1b: Float32Array;
  readonly w1: Float32Array;
  readonly b1: Float32Array;
  readonly w2: Float32Array;
  readonly b2: Float32Array;
  readonly ln2g: Float32Array;
  readonly ln2b: Float32Array;
}

/** All weights of a BERT token classifier. */
export interface BertWeights {
  readonly dims: BertDims;
  readonly wordEmb: Float32Array;
  readonly posEmb: Float32Array;
  readonly typeEmb: Float32Array;
  readonly embLnG: Float32Array;
  readonly embLnB: Float32Array;
  readonly layers: readonly BertLayerWeights[];
  readonly wc: Float32Array;
  readonly bc: Float32Array;
}

const LN_EPS = 1e-12;

/** mulberry32: a tiny seeded generator, so a test model is the same on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random weights: uniform in ±scale, LayerNorm gains near 1. */
export function randomBertWeights(dims: BertDims, seed = 1): BertWeights {
  const next = generator(seed);
  const rand = (n: number, scale: number): Float32Array =>
    Float32Array.from({ length: n }, () => (next() * 2 - 1) * scale);
  const gain = (n: number): Float32Array =>
    Float32Array.from({ length: n }, () => 1 + (next() * 2 - 1) * 0.1);
  const { vocab, hidden: h, intermediate: f, layers, maxPositions, labels } = dims;
  const w = 1 / Math.sqrt(h);
  return {
    dims,
    wordEmb: rand(vocab * h, 1),
    posEmb: rand(maxPositions * h, 0.3),
    typeEmb: rand(2 * h, 0.3),
    embLnG: gain(h),
    embLnB: rand(h, 0.1),
    layers: Array.from({ length: layers }, () => ({
      wq: rand(h * h, w),
      bq: rand(h, 0.1),
      wk: rand(h * h, w),
      bk: rand(h, 0.1),
      wv: rand(h * h, w),
      bv: rand(h, 0.1),
      wo: rand(h * h, w),
      bo: rand(h, 0.1),
      ln1g: gain(h),
      ln1b: rand(h, 0.1),
      w1: rand(h * f, w),
      b1: rand(f, 0.1),
      w2: rand(f * h, 1 / Math.sqrt(f)),
      b2: rand(h, 0.1),
      ln2g: gain(h),
      ln2b: rand(h, 0.1),
    })),
    wc: rand(h * labels, 1),
    bc: rand(labels, 0.5),
  };
}

/** The network as ONNX ModelProto bytes: inputs input_ids, attention_mask, token_type_ids; output logits. */
export function bertOnnx(weights: BertWeights): Uint8Array {
  const { hidden: h, heads, labels } = weights.dims;
  const dh = h / heads;
  const initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  const nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  const floats = (name: string, dims: number[], data: Float32Array): string => {
    const raw = new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: raw }),
    );
    return name;
  };
  const ints = (name: string, values: number[]): string => {
    const raw = new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
    initializers.push(
      onnx.TensorProto.create({
        name,
        dims: [values.length],
        dataType: onnx.TensorProto.DataType.INT64,
        rawData: raw,
      }),
    );
    return name;
  };
  const scalar = (name: string, value: number): string => floats(name, [], Float32Array.of(value));
  let counter = 0;
  const node = (
    op: string,
    inputs: string[],
    attrs: Record<string, number | number[]> = {},
    output?: string,
  ): string => {
    const out = output ?? `${op.toLowerCase()}_${counter++}`;
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, ints: v, type: onnx.AttributeProto.AttributeType.INTS })
        : Number.isInteger(v) && name !== 'epsilon'
          ? onnx.AttributeProto.create({ name, i: v, type: onnx.AttributeProto.AttributeType.INT })
          : onnx.AttributeProto.create({ name, f: v, type: onnx.AttributeProto.AttributeType.FLOAT }),
    );
    nodes.push(onnx.NodeProto.create({ opType: op, input: inputs, output: [out], attribute }));
    return out;
  };
  const linear = (
    x: string,
    w: Float32Array,
    b: Float32Array,
    n: string,
    rows: number,
    cols: number,
  ): string =>
    node('Add', [
      node('MatMul', [x, floats(`${n}.weight`, [rows, cols], w)]),
      floats(`${n}.bias`, [cols], b),
    ]);
  const layerNorm = (x: string, g: Float32Array, b: Float32Array, n: string): string =>
    node('LayerNormalization', [x, floats(`${n}.gamma`, [h], g), floats(`${n}.beta`, [h], b)], {
      axis: -1,
      epsilon: LN_EPS,
    });

  // Embeddings: positions are the first S rows of the position table, S read from the input's shape.
  const seqLen = node('Slice', [
    node('Shape', ['input_ids']),
    ints('one_i', [1]),
    ints('two_i', [2]),
    ints('zero_i', [0]),
  ]);
  const positions = node('Slice', [
    floats('position_embeddings', [weights.dims.maxPositions, h], weights.posEmb),
    ints('zero_start', [0]),
    seqLen,
    ints('zero_axis', [0]),
  ]);
  const words = node('Gather', [
    floats('word_embeddings', [weights.dims.vocab, h], weights.wordEmb),
    'input_ids',
  ]);
  const types = node('Gather', [floats('token_type_embeddings', [2, h], weights.typeEmb), 'token_type_ids']);
  let x = layerNorm(
    node('Add', [node('Add', [words, types]), positions]),
    weights.embLnG,
    weights.embLnB,
    'emb_ln',
  );

  // Additive attention mask [B, 1, 1, S]: 0 where attended, −10000 on padding.
  const maskF = node('Cast', ['attention_mask'], { to: onnx.TensorProto.DataType.FLOAT });
  const maskBias = node('Unsqueeze', [
    node('Mul', [node('Sub', [scalar('one_f', 1), maskF]), scalar('neg_big', -10000)]),
    ints('mask_axes', [1, 2]),
  ]);
  const splitHeads = ints('split_heads', [0, 0, heads, dh]);
  const mergeHeads = ints('merge_heads', [0, 0, h]);
  weights.layers.forEach((l, i) => {
    const p = `layer${i}`;
    const q = node('Transpose', [node('Reshape', [linear(x, l.wq, l.bq, `${p}.q`, h, h), splitHeads])], {
      perm: [0, 2, 1, 3],
    });
    const k = node('Transpose', [node('Reshape', [linear(x, l.wk, l.bk, `${p}.k`, h, h), splitHeads])], {
      perm: [0, 2, 3, 1],
    });
    const v = node('Transpose', [node('Reshape', [linear(x, l.wv, l.bv, `${p}.v`, h, h), splitHeads])], {
      perm: [0, 2, 1, 3],
    });
    const scores = node('Add', [
      node('Mul', [node('MatMul', [q, k]), scalar(`${p}.scale`, 1 / Math.sqrt(dh))]),
      maskBias,
    ]);
    const context = node('MatMul', [node('Softmax', [scores], { axis: -1 }), v]);
    const merged = node('Reshape', [node('Transpose', [context], { perm: [0, 2, 1, 3] }), mergeHeads]);
    const attended = layerNorm(
      node('Add', [linear(merged, l.wo, l.bo, `${p}.o`, h, h), x]),
      l.ln1g,
      l.ln1b,
      `${p}.ln1`,
    );
    const up = linear(attended, l.w1, l.b1, `${p}.ffn1`, h, weights.dims.intermediate);
    // GELU(u) = u/2 · (1 + erf(u/√2)).
    const gelu = node('Mul', [
      node('Mul', [up, scalar(`${p}.half`, 0.5)]),
      node('Add', [
        node('Erf', [node('Div', [up, scalar(`${p}.sqrt2`, Math.SQRT2)])]),
        scalar(`${p}.one`, 1),
      ]),
    ]);
    const down = linear(gelu, l.w2, l.b2, `${p}.ffn2`, weights.dims.intermediate, h);
    x = layerNorm(node('Add', [down, attended]), l.ln2g, l.ln2b, `${p}.ln2`);
  });
  const logits = linear(x, weights.wc, weights.bc, 'classifier', h, labels);
  node('Identity', [logits], {}, 'logits');

  const dim = (d: string | number) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d });
  const tensor = (name: string, elemType: number, dims: (string | number)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType, shape: { dim: dims.map(dim) } } },
    });
  const int64 = onnx.TensorProto.DataType.INT64;
  const graph = onnx.GraphProto.create({
    name: 'keep_model',
    node: nodes,
    initializer: initializers,
    input: [
      tensor('input_ids', int64, ['batch', 'sequence']),
      tensor('attention_mask', int64, ['batch', 'sequence']),
      tensor('token_type_ids', int64, ['batch', 'sequence']),
    ],
    output: [tensor('logits', onnx.TensorProto.DataType.FLOAT, ['batch', 'sequence', labels])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName: 'distil-test',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** What {@link writeBertModelFolder} produced. */
export interface WrittenModel {
  readonly folder: string;
  readonly weights: BertWeights;
  readonly vocab: readonly string[];
}

/**
 * Writes a model folder in the Hugging Face layout. Defaults: the tiny test vocabulary, hidden 16, 2 heads,
 * 2 layers, 32 positions, seed 1.
 */
export function writeBertModelFolder(
  folder: string,
  options: { vocab?: readonly string[]; dims?: Partial<BertDims>; seed?: number } = {},
): WrittenModel {
  const vocab = options.vocab ?? tinyVocab();
  const dims: BertDims = {
    vocab: vocab.length,
    hidden: 16,
    heads: 2,
    intermediate: 32,
    layers: 2,
    maxPositions: 32,
    labels: 2,
    ...options.dims,
  };
  const weights = randomBertWeights(dims, options.seed ?? 1);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const json = (name: string, value: unknown) =>
    writeFileSync(join(folder, name), `${JSON.stringify(value, null, 2)}\n`);
  json('config.json', {
    model_type: 'bert',
    architectures: ['BertForTokenClassification'],
    vocab_size: dims.vocab,
    hidden_size: dims.hidden,
    num_hidden_layers: dims.layers,
    num_attention_heads: dims.heads,
    intermediate_size: dims.intermediate,
    max_position_embeddings: dims.maxPositions,
    type_vocab_size: 2,
    hidden_act: 'gelu',
    layer_norm_eps: LN_EPS,
    id2label: { 0: 'drop', 1: 'keep' },
    label2id: { drop: 0, keep: 1 },
  });
  json('tokenizer.json', bertTokenizerJson(vocab));
  json('tokenizer_config.json', {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: dims.maxPositions,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  });
  writeFileSync(join(folder, 'onnx', 'model.onnx'), bertOnnx(weights));
  return { folder, weights, vocab };
}
