/**
 * The one module that owns onnxruntime-node. It is imported lazily, on the first session, so the rest of
 * @distil/codec installs and starts without the native runtime (the way transformers.js keeps its ONNX
 * backend in backends/onnx.js). Nothing else in the package names onnxruntime.
 */
import type * as Ort from 'onnxruntime-node';
import { fusableGelu } from './gelu-rewrite.js';

let runtime: Promise<typeof Ort> | undefined;

function loadRuntime(): Promise<typeof Ort> {
  runtime ??= import('onnxruntime-node').catch((error: unknown) => {
    runtime = undefined;
    throw new Error(
      `the transformer keep model needs onnxruntime-node 1.30.0 (an optional peer dependency of @distil/codec): ` +
        `install it next to @distil/codec (${(error as Error).message})`,
    );
  });
  return runtime;
}

/** One batch of encoded lines, row-major [rows, width], ready for a BERT-style token classifier. */
export interface EncodedBatch {
  readonly rows: number;
  readonly width: number;
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  readonly tokenTypeIds: BigInt64Array;
}

/** A loaded token-classification session: feeds a batch, returns logits [rows, width, labels]. */
export interface TokenClassifierSession {
  /** Number of labels on the last axis of `logits`. */
  readonly labels: number;
  /** Runs one batch; the returned array is row-major [rows, width, labels]. */
  run(batch: EncodedBatch): Promise<Float32Array>;
  release(): Promise<void>;
}

/** Session knobs; the defaults are the ones `pnpm bench:keep-speed` measured fastest (see the README). */
export interface SessionOptions {
  /** Threads inside one operator (default 2: both cores of a small machine). */
  readonly intraOpThreads?: number;
  /**
   * Whether idle intra-op threads busy-wait for the next operator (default false). Spinning saves a wake-up
   * per operator on an idle machine, but on a loaded one the spinning threads take the cores the work needs.
   */
  readonly spinning?: boolean;
  /** `sequential` (default) or `parallel`: whether independent branches of the graph run at once. */
  readonly executionMode?: 'sequential' | 'parallel';
  /** onnxruntime's graph rewrites before the first run (default `all`). */
  readonly graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** Whether onnxruntime keeps freed CPU buffers in an arena for later runs (default true). */
  readonly enableCpuMemArena?: boolean;
  /** Whether the graph's GELU is rewritten into the form onnxruntime fuses (default true; gelu-rewrite.ts). */
  readonly fuseGelu?: boolean;
}

/** The session options a model opens with when none are given. */
export const DEFAULT_SESSION_OPTIONS: Required<SessionOptions> = {
  intraOpThreads: 2,
  spinning: false,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableCpuMemArena: true,
  fuseGelu: true,
};

const REQUIRED_INPUTS = ['input_ids', 'attention_mask'] as const;

/** onnxruntime's own session options for `o`: one place, so a raw session opens the way the model's does. */
export function ortSessionOptions(o: Required<SessionOptions>): Ort.InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: o.intraOpThreads,
    interOpNumThreads: o.executionMode === 'parallel' ? o.intraOpThreads : 1,
    executionMode: o.executionMode,
    graphOptimizationLevel: o.graphOptimizationLevel,
    enableCpuMemArena: o.enableCpuMemArena,
    extra: { session: { intra_op: { allow_spinning: o.spinning ? '1' : '0' } } },
  };
}

/**
 * Opens an ONNX token classifier from the model's bytes. The graph must take `input_ids` and
 * `attention_mask` (and may take `token_type_ids`), all int64 [batch, sequence], and return `logits`
 * [batch, sequence, labels] as float32. `source` names the file in every error.
 */
export async function openTokenClassifier(
  model: Uint8Array,
  source: string,
  options: SessionOptions = {},
): Promise<TokenClassifierSession> {
  const ort = await loadRuntime();
  const o = { ...DEFAULT_SESSION_OPTIONS, ...definedOnly(options) };
  let session: Ort.InferenceSession;
  try {
    const graph = (o.fuseGelu ? await fusableGelu(model) : null) ?? model;
    session = await ort.InferenceSession.create(graph, ortSessionOptions(o));
  } catch (error) {
    throw new Error(`cannot load ONNX model ${source}: ${(error as Error).message}`);
  }
  for (const name of REQUIRED_INPUTS) {
    if (!session.inputNames.includes(name)) {
      await session.release();
      throw new Error(
        `ONNX model ${source} has no input "${name}" (inputs: ${session.inputNames.join(', ')})`,
      );
    }
  }
  if (!session.outputNames.includes('logits')) {
    await session.release();
    throw new Error(
      `ONNX model ${source} has no output "logits" (outputs: ${session.outputNames.join(', ')})`,
    );
  }
  const feedsTypes = session.inputNames.includes('token_type_ids');
  const logitsMeta = session.outputMetadata[session.outputNames.indexOf('logits')];
  const lastDim = logitsMeta?.isTensor ? logitsMeta.shape[logitsMeta.shape.length - 1] : undefined;
  const labels = typeof lastDim === 'number' && lastDim > 0 ? lastDim : 2;

  return {
    labels,
    async run(batch: EncodedBatch): Promise<Float32Array> {
      const dims = [batch.rows, batch.width];
      const feeds: Record<string, Ort.Tensor> = {
        input_ids: new ort.Tensor('int64', batch.inputIds, dims),
        attention_mask: new ort.Tensor('int64', batch.attentionMask, dims),
      };
      if (feedsTypes) feeds['token_type_ids'] = new ort.Tensor('int64', batch.tokenTypeIds, dims);
      const out = await session.run(feeds, ['logits']);
      const logits = out['logits'];
      if (logits === undefined || logits.type !== 'float32') {
        throw new Error(`ONNX model ${source}: expected float32 logits, got ${logits?.type ?? 'nothing'}`);
      }
      const expected = batch.rows * batch.width * labels;
      if (logits.data.length !== expected) {
        throw new Error(
          `ONNX model ${source}: logits have shape [${logits.dims.join(', ')}], expected [${batch.rows}, ${batch.width}, ${labels}]`,
        );
      }
      return logits.data as Float32Array;
    },
    release: () => session.release(),
  };
}

/** The options that were given, so an explicit `undefined` does not hide a default. */
function definedOnly(options: SessionOptions): Partial<SessionOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
