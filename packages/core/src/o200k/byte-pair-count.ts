import { rankOf, type TokenTable } from './token-table.js';

/**
 * Tokens byte-pair merging makes of bytes[0, length): tiktoken's `_byte_pair_merge`. Starting from single
 * bytes, the adjacent pair whose joined bytes have the lowest rank is merged, the leftmost one on a tie,
 * until no adjacent pair is a token. Only the number of parts is kept: counting needs no ranks.
 *
 * Short pieces (nearly all of them) scan for the lowest pair as tiktoken does; a long piece (a run of
 * one character, a long identifier) takes a heap instead, so a 100 KB run costs n log n, not n².
 * Both merge the same pairs in the same order, so they count the same.
 */
export function bytePairCount(table: TokenTable, bytes: Uint8Array, length: number): number {
  if (length <= 1) return length;
  return length <= SCAN_UP_TO_BYTES ? scanMerge(table, bytes, length) : heapMerge(table, bytes, length);
}

/** Up to this many bytes the quadratic scan is quicker than keeping a heap. */
const SCAN_UP_TO_BYTES = 128;
/** Above every rank: the pair is not a token. */
const NONE = 0x7fffffff;

const starts = new Int32Array(SCAN_UP_TO_BYTES + 1);
const ranks = new Int32Array(SCAN_UP_TO_BYTES + 1);

function pairRank(table: TokenTable, bytes: Uint8Array, start: number, end: number): number {
  const rank = rankOf(table, bytes, start, end);
  return rank < 0 ? NONE : rank;
}

/** tiktoken's loop: `starts` holds each part's first byte (and the end); ranks[i] joins parts i and i+1. */
function scanMerge(table: TokenTable, bytes: Uint8Array, length: number): number {
  let parts = length;
  for (let i = 0; i <= length; i++) starts[i] = i;
  for (let i = 0; i < length - 1; i++) ranks[i] = pairRank(table, bytes, i, i + 2);
  while (parts > 1) {
    let lowest = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (ranks[i]! < lowest) {
        lowest = ranks[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    // Part at+1 joins part at: its start goes, and so does the rank that joined it to the part after.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    ranks[at] = at + 2 <= parts ? pairRank(table, bytes, starts[at]!, starts[at + 2]!) : NONE;
    if (at > 0) ranks[at - 1] = pairRank(table, bytes, starts[at - 1]!, starts[at + 1]!);
  }
  return parts;
}

// The heap's working arrays, kept between calls up to KEPT_UP_TO_BYTES (a rare longer piece gets its own,
// so one 200 KB run does not leave megabytes behind in every thread).
const KEPT_UP_TO_BYTES = 16 * 1024;
let kept: HeapArrays | null = null;

interface HeapArrays {
  readonly next: Int32Array;
  readonly previous: Int32Array;
  readonly pairRanks: Int32Array;
  readonly heap: Float64Array;
}

function heapArrays(length: number): HeapArrays {
  if (kept && kept.next.length > length) return kept;
  const bytes = Math.max(length, length <= KEPT_UP_TO_BYTES ? 1024 : 0);
  const arrays = {
    next: new Int32Array(bytes + 1),
    previous: new Int32Array(bytes + 1),
    pairRanks: new Int32Array(bytes + 1),
    heap: new Float64Array(3 * bytes),
  };
  if (bytes <= KEPT_UP_TO_BYTES) kept = arrays;
  return arrays;
}

/**
 * The same merges with a linked list of parts and a min-heap of (rank, first byte) keys. A key is stale
 * once its part merged or its pair changed (pairRanks no longer says that rank); stale keys are skipped
 * when they come up. Ties go to the lowest first byte, i.e. the leftmost pair, as in the scan.
 */
function heapMerge(table: TokenTable, bytes: Uint8Array, length: number): number {
  const { next, previous, pairRanks, heap } = heapArrays(length);
  let size = 0;
  const push = (rank: number, at: number): void => {
    let i = size++;
    const key = rank * POSITIONS + at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]! <= key) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = key;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap[--size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
      if (heap[child]! >= last) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  };
  const rankAt = (at: number): number => {
    const second = next[at]!;
    return second >= length ? NONE : pairRank(table, bytes, at, next[second]!);
  };

  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  for (let i = 0; i < length; i++) {
    const rank = i + 1 < length ? pairRank(table, bytes, i, i + 2) : NONE;
    pairRanks[i] = rank;
    if (rank !== NONE) push(rank, i);
  }
  let parts = length;
  while (size > 0) {
    const key = pop();
    const rank = Math.floor(key / POSITIONS);
    const at = key - rank * POSITIONS;
    if (pairRanks[at] !== rank) continue;
    const gone = next[at]!;
    next[at] = next[gone]!;
    previous[next[gone]!] = at;
    pairRanks[gone] = REMOVED;
    parts--;
    pairRanks[at] = rankAt(at);
    if (pairRanks[at] !== NONE) push(pairRanks[at]!, at);
    if (at > 0) {
      const before = previous[at]!;
      pairRanks[before] = rankAt(before);
      if (pairRanks[before] !== NONE) push(pairRanks[before]!, before);
    }
  }
  return parts;
}

/** Heap keys are rank · POSITIONS + first byte: exact in a double for ranks below 2^21. */
const POSITIONS = 2 ** 32;
/** A part that merged into the one before it; no key matches it. */
const REMOVED = -1;
