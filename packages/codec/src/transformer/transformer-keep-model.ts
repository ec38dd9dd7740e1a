import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { type ContentKind, DECISION_MARKER, type KeepModel } from '@distil/contract';
import { BatchEncoder, type EncodedLines } from './batch-encoder.js';
import { type BatchLimits, batchByLength } from './length-batches.js';
import { maxSequenceLength, readModelFolder } from './model-folder.js';
import {
  DEFAULT_SESSION_OPTIONS,
  type EncodedBatch,
  openTokenClassifier,
  type SessionOptions,
  type TokenClassifierSession,
} from './onnx-runtime.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

/** Options of {@link TransformerKeepModel.fromPretrained}. */
export interface TransformerKeepModelOptions {
  /**
   * onnxruntime intra-op threads (default 2, with spinning off: `pnpm bench:keep-speed` measured it at least
   * as fast as one thread on a loaded 2-core machine, and far faster than two spinning threads, onnxruntime's
   * own default). Shorthand for `session.intraOpThreads`.
   */
  readonly intraOpThreads?: number;
  /** The rest of the onnxruntime session options (threads, spinning, execution mode, graph optimisation). */
  readonly session?: SessionOptions;
  /** Longest sequence fed to the model, specials included (default: from the folder's config, at most 128). */
  readonly maxTokens?: number;
  /** Batch size limits (default 1,024 padded tokens and 512 rows per batch). */
  readonly batch?: BatchLimits;
}

/** The label whose probability is the keep-probability (spec: label 1 = keep, label 0 = drop). */
const KEEP_LABEL = 1;
/** Distinct lines encoded at a time (at most 128 tokens each, so at most ~2 M token ids in memory). */
const WINDOW_LINES = 16_384;
/** Per-line score = mean of the top-k token keep-probabilities (spec: "mean of top-3"). */
const TOP_K = 3;

/**
 * A keep model backed by an ONNX token classifier (a small BERT) and its own WordPiece tokenizer (spec:
 * "Transformer keep-model — ONNX inference adapter"). Lines are deduplicated, encoded once, grouped by
 * token length into batches padded to their own longest line, run through onnxruntime (two intra-op
 * threads that sleep instead of spinning between operators), and scored as the mean of the top-3 token
 * keep-probabilities. A line containing `DECISION:` scores 1 (the never-drop floor). The content kind does
 * not change scoring: the model was trained on lines, whatever their block.
 */
export class TransformerKeepModel implements KeepModel {
  private constructor(
    /** `transformer:<first 12 hex of sha-256 of model.onnx>`. */
    readonly id: string,
    /** The model folder this was loaded from. */
    readonly folder: string,
    /** Longest sequence fed to the model, specials included; longer lines are truncated. */
    readonly maxTokens: number,
    private readonly tokenizer: WordPieceTokenizer,
    private readonly session: TokenClassifierSession,
    private readonly limits: BatchLimits,
  ) {}

  /**
   * Loads a model folder: config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (the
   * Hugging Face layout). Errors name the missing path or the malformed file and field.
   */
  static async fromPretrained(
    folder: string,
    options: TransformerKeepModelOptions = {},
  ): Promise<TransformerKeepModel> {
    const files = readModelFolder(folder);
    let tokenizer: WordPieceTokenizer;
    try {
      tokenizer = new WordPieceTokenizer(files.tokenizer);
    } catch (error) {
      throw new Error(`${join(folder, 'tokenizer.json')}: ${(error as Error).message}`);
    }
    const maxTokens = options.maxTokens ?? maxSequenceLength(files);
    if (maxTokens <= tokenizer.specialCount) {
      throw new Error(
        `maxTokens ${maxTokens} leaves no room for a line next to ${tokenizer.specialCount} special tokens`,
      );
    }
    const session = await openTokenClassifier(files.modelBytes, files.modelPath, {
      ...options.session,
      intraOpThreads:
        options.intraOpThreads ?? options.session?.intraOpThreads ?? DEFAULT_SESSION_OPTIONS.intraOpThreads,
    });
    const digest = createHash('sha256').update(files.modelBytes).digest('hex');
    return new TransformerKeepModel(
      `transformer:${digest.slice(0, 12)}`,
      folder,
      maxTokens,
      tokenizer,
      session,
      options.batch ?? {},
    );
  }

  /**
   * Runs the model once on a few lines of different lengths, so the first real request does not pay for
   * onnxruntime's first-run allocations and the JIT's first pass over the tokenizer.
   */
  async warmUp(): Promise<void> {
    const lines = [1, 4, 16, 64].map((n) => Array.from({ length: n }, (_, i) => `warm ${i}`).join(' '));
    await this.scoreLines(lines, 'tool_output');
  }

  /** Keep-probability per line (the KeepModel contract). */
  async scoreLines(lines: readonly string[], _kind: ContentKind): Promise<Float32Array> {
    const scores = new Float32Array(lines.length);
    const { distinct, uniqueOf } = distinctLines(lines);
    for (let i = 0; i < lines.length; i++) if (uniqueOf[i]! < 0) scores[i] = 1;
    const uniqueScores = new Float32Array(distinct.length);
    // One encoder per call: its buffers are reused from batch to batch of this call, and concurrent calls
    // (each awaiting its own runs) never write into feeds another call has in flight.
    const encoder = new BatchEncoder(this.tokenizer);
    // Windows of lines bound the memory the encoded tokens take on a huge input; within a window lines are
    // still grouped by length, so padding stays small.
    for (let from = 0; from < distinct.length; from += WINDOW_LINES) {
      const to = Math.min(distinct.length, from + WINDOW_LINES);
      await this.scoreWindow(encoder, distinct, from, to, uniqueScores);
    }
    for (let i = 0; i < lines.length; i++) {
      const u = uniqueOf[i]!;
      if (u >= 0) scores[i] = uniqueScores[u]!;
    }
    return scores;
  }

  /**
   * The feeds `scoreLines` runs for these lines, batch by batch, each owning its arrays: what a benchmark
   * runs through onnxruntime directly to measure the model alone on exactly the same batches.
   */
  batchesOf(lines: readonly string[]): EncodedBatch[] {
    const { distinct } = distinctLines(lines);
    const encoder = new BatchEncoder(this.tokenizer);
    const out: EncodedBatch[] = [];
    for (let from = 0; from < distinct.length; from += WINDOW_LINES) {
      const encoded = this.encodeWindow(distinct, from, Math.min(distinct.length, from + WINDOW_LINES));
      for (const batch of batchByLength(encoded.lengths, this.tokenizer.specialCount, this.limits)) {
        out.push(encoder.encodeOwned(batch.rows, batch.width, encoded));
      }
    }
    return out;
  }

  /** Keep-probability of one line. */
  async score(line: string, kind: ContentKind): Promise<number> {
    return (await this.scoreLines([line], kind))[0]!;
  }

  /** Frees the onnxruntime session. The model cannot score afterwards. */
  release(): Promise<void> {
    return this.session.release();
  }

  private async scoreWindow(
    encoder: BatchEncoder,
    lines: readonly string[],
    from: number,
    to: number,
    out: Float32Array,
  ): Promise<void> {
    const encoded = this.encodeWindow(lines, from, to);
    const scores = out.subarray(from, to);
    for (const batch of batchByLength(encoded.lengths, this.tokenizer.specialCount, this.limits)) {
      const feeds = encoder.encode(batch.rows, batch.width, encoded);
      const logits = await this.session.run(feeds);
      this.readScores(batch.rows, feeds.width, encoded.lengths, logits, scores);
    }
  }

  /** Content token ids of lines `from`..`to`, each truncated to what fits beside the special tokens. */
  private encodeWindow(lines: readonly string[], from: number, to: number): EncodedLines {
    const tokens: number[] = [];
    const offsets: number[] = [];
    const lengths: number[] = [];
    const maxContent = this.maxTokens - this.tokenizer.specialCount;
    for (let i = from; i < to; i++) {
      offsets.push(tokens.length);
      lengths.push(this.tokenizer.encodeContent(lines[i]!, tokens, maxContent));
    }
    return { tokens, offsets, lengths };
  }

  private readScores(
    rows: Int32Array,
    width: number,
    lengths: readonly number[],
    logits: Float32Array,
    out: Float32Array,
  ): void {
    const labels = this.session.labels;
    const prefix = this.tokenizer.prefix.length;
    for (let r = 0; r < rows.length; r++) {
      const u = rows[r]!;
      const len = lengths[u]!;
      // The line's own tokens; a line with none (blank) is scored on its special tokens.
      const from = len > 0 ? prefix : 0;
      const to = len > 0 ? prefix + len : this.tokenizer.specialCount;
      let a = -1;
      let b = -1;
      let c = -1;
      for (let pos = from; pos < to; pos++) {
        const p = keepProbability(logits, (r * width + pos) * labels, labels);
        if (p > a) {
          c = b;
          b = a;
          a = p;
        } else if (p > b) {
          c = b;
          b = p;
        } else if (p > c) c = p;
      }
      const n = Math.min(TOP_K, to - from);
      out[u] = n === 0 ? 0 : (a + (n > 1 ? b : 0) + (n > 2 ? c : 0)) / n;
    }
  }
}

/**
 * Each distinct line once, in first-seen order (logs repeat lines often, and a repeat costs a map lookup
 * instead of a model run), with every line's index into them; -1 marks a line holding `DECISION:`, which
 * is never run (it scores 1).
 */
function distinctLines(lines: readonly string[]): { distinct: string[]; uniqueOf: Int32Array } {
  const uniqueIndex = new Map<string, number>();
  const uniqueOf = new Int32Array(lines.length).fill(-1);
  const distinct: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.includes(DECISION_MARKER)) continue;
    let u = uniqueIndex.get(line);
    if (u === undefined) {
      u = distinct.length;
      uniqueIndex.set(line, u);
      distinct.push(line);
    }
    uniqueOf[i] = u;
  }
  return { distinct, uniqueOf };
}

/** Softmax probability of the keep label at one token; two labels reduce to a sigmoid of their difference. */
function keepProbability(logits: Float32Array, at: number, labels: number): number {
  if (labels === 2) return 1 / (1 + Math.exp(logits[at]! - logits[at + 1]!));
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < labels; k++) max = Math.max(max, logits[at + k]!);
  let sum = 0;
  for (let k = 0; k < labels; k++) sum += Math.exp(logits[at + k]! - max);
  return Math.exp(logits[at + KEEP_LABEL]! - max) / sum;
}
