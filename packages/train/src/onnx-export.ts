import type { BertParams } from './bert-params.js';
import { ElementType, OnnxGraphBuilder } from './onnx-graph-builder.js';

/** ONNX IR version and opset of the export: LayerNormalization needs opset 17; IR 8 pairs with it. */
export const ONNX_IR_VERSION = 8;
export const ONNX_OPSET = 17;

/**
 * Writes a BERT token classifier as an ONNX model with the inputs transformers.js and the codec feed
 * (`input_ids`, `attention_mask`, `token_type_ids`, int64 [batch, sequence]) and one output `logits`
 * [batch, sequence, labels]. Ops: Gather, Shape, Slice, Add, Sub, Mul, Cast, Unsqueeze,
 * LayerNormalization, MatMul, Reshape, Transpose, Softmax, Erf — the same arithmetic as `bertLogits`,
 * including the (1 − mask)·−10000 attention bias, so both agree to float rounding.
 */
export function exportBertToOnnx(params: BertParams): Uint8Array {
  const dims = params.dims;
  const H = dims.hiddenSize;
  const nh = dims.numHeads;
  const hd = H / nh;
  const g = new OnnxGraphBuilder();
  const weight = (name: string) => {
    const i = params.indexOf(name);
    if (i === undefined) throw new Error(`no parameter ${name}`);
    return g.floatTensor(name, params.specs[i]?.shape as number[], params.view(i));
  };
  const dense = (x: string, prefix: string) =>
    g.node('Add', [g.node('MatMul', [x, weight(`${prefix}.weight`)]), weight(`${prefix}.bias`)]);
  const layerNorm = (x: string, prefix: string) =>
    g.node('LayerNormalization', [x, weight(`${prefix}.weight`), weight(`${prefix}.bias`)], {
      axis: -1,
      epsilon: { float: dims.layerNormEps },
    });

  // Embeddings: word + position (the first `sequence` rows) + token type, then LayerNorm.
  const words = g.node('Gather', [weight('bert.embeddings.word_embeddings.weight'), 'input_ids'], {
    axis: 0,
  });
  const seqLen = g.node('Slice', [g.node('Shape', ['input_ids']), g.int64Tensor([1]), g.int64Tensor([2])]);
  const positions = g.node('Slice', [
    weight('bert.embeddings.position_embeddings.weight'),
    g.int64Tensor([0]),
    seqLen,
    g.int64Tensor([0]),
  ]);
  const types = g.node('Gather', [weight('bert.embeddings.token_type_embeddings.weight'), 'token_type_ids'], {
    axis: 0,
  });
  let x = layerNorm(g.node('Add', [g.node('Add', [words, positions]), types]), 'bert.embeddings.LayerNorm');

  // Attention bias [batch, 1, 1, sequence]: 0 on tokens, −10000 on padding.
  const maskF = g.node('Cast', ['attention_mask'], { to: ElementType.float });
  const bias = g.node('Unsqueeze', [
    g.node('Mul', [g.node('Sub', [g.scalar(1), maskF]), g.scalar(-10000)]),
    g.int64Tensor([1, 2]),
  ]);
  const headShape = g.int64Tensor([0, 0, nh, hd]);
  const mergedShape = g.int64Tensor([0, 0, H]);
  const scale = g.scalar(1 / Math.sqrt(hd));
  const half = g.scalar(0.5);
  const one = g.scalar(1);
  const invSqrt2 = g.scalar(Math.SQRT1_2);

  for (let l = 0; l < dims.numLayers; l++) {
    const pre = `bert.encoder.layer.${l}`;
    const split = (t: string, perm: number[]) =>
      g.node('Transpose', [g.node('Reshape', [t, headShape])], { perm });
    const q = split(dense(x, `${pre}.attention.self.query`), [0, 2, 1, 3]);
    const kT = split(dense(x, `${pre}.attention.self.key`), [0, 2, 3, 1]);
    const v = split(dense(x, `${pre}.attention.self.value`), [0, 2, 1, 3]);
    const scores = g.node('Add', [g.node('Mul', [g.node('MatMul', [q, kT]), scale]), bias]);
    const probs = g.node('Softmax', [scores], { axis: -1 });
    const context = g.node('Reshape', [
      g.node('Transpose', [g.node('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }),
      mergedShape,
    ]);
    const attended = dense(context, `${pre}.attention.output.dense`);
    x = layerNorm(g.node('Add', [attended, x]), `${pre}.attention.output.LayerNorm`);
    const h = dense(x, `${pre}.intermediate.dense`);
    const gelu = g.node('Mul', [
      g.node('Mul', [h, half]),
      g.node('Add', [g.node('Erf', [g.node('Mul', [h, invSqrt2])]), one]),
    ]);
    const out = dense(gelu, `${pre}.output.dense`);
    x = layerNorm(g.node('Add', [out, x]), `${pre}.output.LayerNorm`);
  }
  g.node(
    'Add',
    [g.node('MatMul', [x, weight('classifier.weight')]), weight('classifier.bias')],
    {},
    'logits',
  );

  const tokenInput = (name: string) => ({
    name,
    type: ElementType.int64,
    dims: ['batch_size', 'sequence_length'],
  });
  return g.encode({
    name: 'distil-keep-bert',
    inputs: [tokenInput('input_ids'), tokenInput('attention_mask'), tokenInput('token_type_ids')],
    outputs: [
      { name: 'logits', type: ElementType.float, dims: ['batch_size', 'sequence_length', dims.numLabels] },
    ],
    irVersion: ONNX_IR_VERSION,
    opset: ONNX_OPSET,
    producer: 'distil-train',
  });
}
