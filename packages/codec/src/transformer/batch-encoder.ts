import type { EncodedBatch } from './onnx-runtime.js';

/** The special tokens every encoded row carries around a line's own tokens (a WordPiece tokenizer's). */
export interface RowTemplate {
  readonly prefix: readonly number[];
  readonly prefixTypes: readonly number[];
  readonly suffix: readonly number[];
  readonly suffixTypes: readonly number[];
  readonly sequenceType: number;
}

/** Encoded lines of one window: every line's content token ids back to back, with offsets and lengths. */
export interface EncodedLines {
  readonly tokens: readonly number[];
  readonly offsets: readonly number[];
  readonly lengths: readonly number[];
}

/**
 * Writes batches of encoded lines as the int64 [rows, width] feeds of a BERT token classifier, into
 * buffers it keeps and reuses from batch to batch: a scoring call allocates nothing per batch, and the
 * feeds are written as 32-bit halves instead of one BigInt per token. A batch it returns is valid until the
 * next `encode`; `encodeOwned` returns one that owns its memory.
 */
export class BatchEncoder {
  private ids = new BigInt64Array(0);
  private mask = new BigInt64Array(0);
  private types = new BigInt64Array(0);
  private ids32 = new Int32Array(0);
  private mask32 = new Int32Array(0);
  private types32 = new Int32Array(0);
  /** Whether every token type is 0 (BERT's single-sequence case): the type buffer then stays all zeros. */
  private readonly zeroTypes: boolean;

  constructor(private readonly row: RowTemplate) {
    this.zeroTypes =
      row.sequenceType === 0 &&
      row.prefixTypes.every((t) => t === 0) &&
      row.suffixTypes.every((t) => t === 0);
  }

  /** Feeds for `rows` (indexes into `lines`), each padded to `contentWidth` content tokens. */
  encode(rows: ArrayLike<number>, contentWidth: number, lines: EncodedLines): EncodedBatch {
    const { prefix, prefixTypes, suffix, suffixTypes, sequenceType } = this.row;
    const width = contentWidth + prefix.length + suffix.length;
    const size = rows.length * width;
    this.reserve(size);
    const ids = this.ids32;
    const mask = this.mask32;
    const types = this.types32;
    // Values are small non-negative ints: the low 32-bit half (little-endian) holds them, the high half 0.
    ids.fill(0, 0, 2 * size);
    mask.fill(0, 0, 2 * size);
    if (!this.zeroTypes) types.fill(0, 0, 2 * size);
    const { tokens, offsets, lengths } = lines;
    for (let r = 0; r < rows.length; r++) {
      const u = rows[r]!;
      let at = 2 * r * width;
      for (let k = 0; k < prefix.length; k++, at += 2) {
        ids[at] = prefix[k]!;
        mask[at] = 1;
        if (!this.zeroTypes) types[at] = prefixTypes[k]!;
      }
      const from = offsets[u]!;
      const len = lengths[u]!;
      for (let k = 0; k < len; k++, at += 2) {
        ids[at] = tokens[from + k]!;
        mask[at] = 1;
        if (!this.zeroTypes) types[at] = sequenceType;
      }
      for (let k = 0; k < suffix.length; k++, at += 2) {
        ids[at] = suffix[k]!;
        mask[at] = 1;
        if (!this.zeroTypes) types[at] = suffixTypes[k]!;
      }
      // Padding stays id 0, mask 0: masked positions neither attend nor are scored.
    }
    return {
      rows: rows.length,
      width,
      inputIds: this.ids.subarray(0, size),
      attentionMask: this.mask.subarray(0, size),
      tokenTypeIds: this.types.subarray(0, size),
    };
  }

  /** As `encode`, into fresh arrays the caller keeps. */
  encodeOwned(rows: ArrayLike<number>, contentWidth: number, lines: EncodedLines): EncodedBatch {
    const b = this.encode(rows, contentWidth, lines);
    return {
      rows: b.rows,
      width: b.width,
      inputIds: b.inputIds.slice(),
      attentionMask: b.attentionMask.slice(),
      tokenTypeIds: b.tokenTypeIds.slice(),
    };
  }

  private reserve(size: number): void {
    if (this.ids.length >= size) return;
    const capacity = Math.max(size, 2 * this.ids.length);
    this.ids = new BigInt64Array(capacity);
    this.mask = new BigInt64Array(capacity);
    this.types = new BigInt64Array(capacity);
    this.ids32 = new Int32Array(this.ids.buffer);
    this.mask32 = new Int32Array(this.mask.buffer);
    this.types32 = new Int32Array(this.types.buffer);
  }
}
