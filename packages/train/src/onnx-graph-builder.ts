import { createRequire } from 'node:module';
import type { onnx as OnnxNamespace } from 'onnx-proto';

// onnx-proto is CommonJS whose `onnx` namespace Node cannot see as a named ESM export.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: typeof OnnxNamespace };

/** ONNX element types this exporter writes. */
export const ElementType = Object.freeze({
  float: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
});

/** An attribute value: a number is written as INT when integral, FLOAT otherwise; use `{ float }` to force. */
export type AttributeValue = number | { readonly float: number } | readonly number[];

function littleEndianBytes(data: Float32Array | BigInt64Array): Uint8Array {
  // Node runs little-endian on every supported platform, as ONNX raw_data requires.
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Builds an ONNX GraphProto node by node. Weights become float32 initializers in `raw_data`; intermediate
 * names are generated, so a graph reads like the forward pass that produced it.
 */
export class OnnxGraphBuilder {
  readonly #nodes: OnnxNamespace.INodeProto[] = [];
  readonly #initializers: OnnxNamespace.ITensorProto[] = [];
  #counter = 0;

  /** Adds a float32 initializer and returns its name. */
  floatTensor(name: string, dims: readonly number[], data: Float32Array): string {
    this.#initializers.push({
      name,
      dims: [...dims],
      dataType: ElementType.float,
      rawData: littleEndianBytes(data),
    });
    return name;
  }

  /** Adds an int64 initializer (shapes, axes, indices) and returns its name. */
  int64Tensor(values: readonly number[], dims: readonly number[] = [values.length]): string {
    const name = `const_i64_${this.#counter++}`;
    this.#initializers.push({
      name,
      dims: [...dims],
      dataType: ElementType.int64,
      rawData: littleEndianBytes(BigInt64Array.from(values.map((v) => BigInt(v)))),
    });
    return name;
  }

  /** Adds a float32 scalar constant and returns its name. */
  scalar(value: number): string {
    return this.floatTensor(`const_f32_${this.#counter++}`, [], Float32Array.of(value));
  }

  /** Appends a node; returns its (first) output name. */
  node(
    opType: string,
    inputs: readonly string[],
    attributes: Record<string, AttributeValue> = {},
    output?: string,
  ): string {
    const out = output ?? `${opType.toLowerCase()}_${this.#counter++}`;
    this.#nodes.push({
      opType,
      name: `${opType}_${this.#counter++}`,
      input: [...inputs],
      output: [out],
      attribute: Object.entries(attributes).map(([name, value]) => {
        if (Array.isArray(value))
          return { name, ints: [...value], type: onnx.AttributeProto.AttributeType.INTS };
        if (typeof value === 'object') {
          return {
            name,
            f: (value as { float: number }).float,
            type: onnx.AttributeProto.AttributeType.FLOAT,
          };
        }
        return { name, i: value as number, type: onnx.AttributeProto.AttributeType.INT };
      }),
    });
    return out;
  }

  /**
   * Serialises a ModelProto with the given graph inputs/outputs. Dimension names (strings) are symbolic,
   * numbers fixed.
   */
  encode(options: {
    readonly name: string;
    readonly inputs: readonly { name: string; type: number; dims: readonly (string | number)[] }[];
    readonly outputs: readonly { name: string; type: number; dims: readonly (string | number)[] }[];
    readonly irVersion: number;
    readonly opset: number;
    readonly producer: string;
  }): Uint8Array {
    const valueInfo = (v: { name: string; type: number; dims: readonly (string | number)[] }) => ({
      name: v.name,
      type: {
        tensorType: {
          elemType: v.type,
          shape: { dim: v.dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
        },
      },
    });
    const model = onnx.ModelProto.create({
      irVersion: options.irVersion,
      producerName: options.producer,
      opsetImport: [{ domain: '', version: options.opset }],
      graph: {
        name: options.name,
        node: this.#nodes,
        initializer: this.#initializers,
        input: options.inputs.map(valueInfo),
        output: options.outputs.map(valueInfo),
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
