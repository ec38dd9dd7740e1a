import type { TokenBatch } from './bert-forward.js';
import { seededRandom } from './bert-params.js';

/** One training line, tokenized: `[CLS] pieces [SEP]` and its keep label. */
export interface EncodedLine {
  readonly ids: Int32Array;
  /** 1 = keep. Every token of the line (specials included) carries this label. */
  readonly label: 0 | 1;
}

/** How batches are cut. */
export interface BatchShape {
  /** Padded tokens per batch (rows × longest row); default 2048, i.e. 32 rows of 64. */
  readonly tokenBudget: number;
  /** Most rows per batch; default 128. */
  readonly maxRows: number;
}

export const DEFAULT_BATCH_SHAPE: BatchShape = Object.freeze({ tokenBudget: 2048, maxRows: 128 });

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * Groups lines of similar length so padding stays small (lines in a corpus range from 3 to 64+ pieces),
 * then fills each batch up to the token budget: short lines make tall batches, long lines short ones, and
 * every step costs about the same. With a seed, ties are broken and batch order shuffled for that seed
 * (a new seed per epoch); without one, the order is by length (evaluation).
 */
export function lengthGroupedBatches<T extends EncodedLine>(
  lines: readonly T[],
  shape: BatchShape = DEFAULT_BATCH_SHAPE,
  seed?: number,
): T[][] {
  const random = seed === undefined ? undefined : seededRandom(seed);
  const order = random ? shuffle([...lines], random) : [...lines];
  order.sort((a, b) => a.ids.length - b.ids.length);
  const batches: T[][] = [];
  let current: T[] = [];
  for (const line of order) {
    const longest = Math.max(line.ids.length, current.at(-1)?.ids.length ?? 0);
    if (
      current.length > 0 &&
      ((current.length + 1) * longest > shape.tokenBudget || current.length >= shape.maxRows)
    ) {
      batches.push(current);
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) batches.push(current);
  return random ? shuffle(batches, random) : batches;
}

/** Pads lines to the longest one: [PAD] ids and mask 0 after each line, every real token labelled. */
export function padBatch(lines: readonly EncodedLine[], padId = 0): TokenBatch {
  const seqLen = Math.max(1, ...lines.map((l) => l.ids.length));
  const rows = lines.length;
  const ids = new Int32Array(rows * seqLen).fill(padId);
  const mask = new Int32Array(rows * seqLen);
  const labels = new Uint8Array(rows * seqLen);
  lines.forEach((line, r) => {
    const base = r * seqLen;
    ids.set(line.ids, base);
    mask.fill(1, base, base + line.ids.length);
    labels.fill(line.label, base, base + line.ids.length);
  });
  return { rows, seqLen, ids, mask, labels };
}

/** Unpadded tokens in a set of lines. */
export function tokenCount(lines: readonly EncodedLine[]): number {
  let n = 0;
  for (const line of lines) n += line.ids.length;
  return n;
}
