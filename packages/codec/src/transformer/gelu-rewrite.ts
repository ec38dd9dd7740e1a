/**
 * Rewrites the exact GELU of a BERT graph into the form onnxruntime fuses. `x/2 · (1 + erf(x · (1/√2)))`
 * and `x/2 · (1 + erf(x / √2))` are the same function, but onnxruntime's GeluFusion (and BiasGelu after
 * it) only recognises the `Div` by √2: with the `Mul` by 1/√2 (what distil-train exports) the GELU stays
 * five element-wise passes over the [tokens, intermediate] activation, which measured ~30% of a run.
 * Turning each such `Mul` into a `Div` lets onnxruntime run one fused kernel; results differ by float
 * rounding (below 1e-6 on the shipped model's logits).
 *
 * onnx-proto (an optional peer dependency) reads and writes the graph; without it, or when nothing
 * matches, the model is used as it is.
 */
type OnnxProto = typeof import('onnx-proto');

let proto: Promise<OnnxProto | null> | undefined;

function loadProto(): Promise<OnnxProto | null> {
  proto ??= import('onnx-proto').then(
    (m) => (m as { default?: OnnxProto }).default ?? m,
    () => null,
  );
  return proto;
}

const FLOAT = 1;
const SQRT1_2_TOLERANCE = 1e-6;

/** The model with every `Erf(Mul(x, 1/√2))` written as `Erf(Div(x, √2))`, or null when none was found. */
export async function fusableGelu(model: Uint8Array): Promise<Uint8Array | null> {
  const lib = await loadProto();
  if (lib === null) return null;
  const { onnx } = lib;
  let decoded: InstanceType<typeof onnx.ModelProto>;
  try {
    decoded = onnx.ModelProto.decode(model);
  } catch {
    return null; // onnxruntime reports a corrupt file with its own message
  }
  const graph = decoded.graph;
  if (!graph) return null;
  const scalars = new Map<string, number>();
  for (const t of graph.initializer ?? []) {
    const value = floatScalar(t);
    if (t.name && value !== undefined) scalars.set(t.name, value);
  }
  const consumers = new Map<string, string[]>();
  for (const n of graph.node ?? []) {
    for (const input of n.input ?? [])
      consumers.set(input, [...(consumers.get(input) ?? []), n.opType ?? '']);
  }
  const sqrt2 = uniqueName(graph, 'distil_gelu_sqrt2');
  let changed = 0;
  const replaced = new Set<string>();
  for (const n of graph.node ?? []) {
    if (n.opType !== 'Mul' || n.input?.length !== 2 || n.output?.length !== 1) continue;
    const c = n.input.findIndex((name) => {
      const v = scalars.get(name);
      return v !== undefined && Math.abs(v - Math.SQRT1_2) < SQRT1_2_TOLERANCE;
    });
    if (c === -1) continue;
    const feeds = consumers.get(n.output[0]!) ?? [];
    if (feeds.length !== 1 || feeds[0] !== 'Erf') continue;
    replaced.add(n.input[c]!);
    n.opType = 'Div';
    n.input = [n.input[1 - c]!, sqrt2];
    changed++;
  }
  if (changed === 0) return null;
  // A 1/√2 constant nothing reads any more is dropped (onnxruntime would warn about it on every load).
  const stillRead = new Set((graph.node ?? []).flatMap((n) => n.input ?? []));
  graph.initializer = [
    ...(graph.initializer ?? []).filter((t) => !(t.name && replaced.has(t.name) && !stillRead.has(t.name))),
    onnx.TensorProto.create({
      name: sqrt2,
      dims: [],
      dataType: FLOAT,
      rawData: new Uint8Array(Float32Array.of(Math.SQRT2).buffer),
    }),
  ];
  return onnx.ModelProto.encode(decoded).finish();
}

/** A float32 initializer holding one value, whether stored as raw bytes or as float_data. */
function floatScalar(t: {
  dataType?: number | null;
  dims?: (number | Long)[] | null;
  rawData?: Uint8Array | null;
  floatData?: number[] | null;
}): number | undefined {
  if (t.dataType !== FLOAT) return undefined;
  if ((t.dims ?? []).some((d) => (typeof d === 'number' ? d : d.toNumber()) !== 1)) return undefined;
  if (t.rawData && t.rawData.length === 4) {
    return new DataView(t.rawData.buffer, t.rawData.byteOffset, 4).getFloat32(0, true);
  }
  if (t.floatData && t.floatData.length === 1) return t.floatData[0];
  return undefined;
}

/** A name no initializer, input or node output of the graph uses. */
function uniqueName(
  graph: {
    initializer?: { name?: string | null }[] | null;
    node?: { output?: string[] | null }[] | null;
    input?: { name?: string | null }[] | null;
  },
  base: string,
): string {
  const taken = new Set<string>();
  for (const t of graph.initializer ?? []) if (t.name) taken.add(t.name);
  for (const i of graph.input ?? []) if (i.name) taken.add(i.name);
  for (const n of graph.node ?? []) for (const o of n.output ?? []) taken.add(o);
  let name = base;
  for (let k = 1; taken.has(name); k++) name = `${base}_${k}`;
  return name;
}

/** protobufjs's 64-bit integer, as onnx-proto types dims. */
interface Long {
  toNumber(): number;
}
