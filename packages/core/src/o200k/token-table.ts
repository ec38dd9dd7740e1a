/**
 * The o200k_base ranks in one SharedArrayBuffer: every token's bytes in one pool, where each rank's bytes
 * start, and an open-addressing hash index from byte sequence to rank. About 4 MB for the 199,998 tokens,
 * built once per process and shared by reference with worker threads (a SharedArrayBuffer crosses
 * `workerData` and `postMessage` without a copy). Layout, in 32-bit words then bytes:
 *
 *   header   MAGIC, token count, slot count, pool bytes, longest token's bytes
 *   offsets  token count + 1 words: rank r's bytes are pool[offsets[r], offsets[r + 1])
 *   slots    slot count words (a power of two): 0 for empty, else rank + 1 in the low RANK_BITS bits and
 *            the top bits of the key's hash above them, so a probe compares bytes only on a likely match
 *   pool     pool bytes
 */

/** 'o2kb' in ASCII: the first word of a table, checked before a buffer from elsewhere is used. */
const MAGIC = 0x6f326b62;
const HEADER_WORDS = 5;
/** Bits of a slot that hold rank + 1 (o200k's ranks are below 2^18). */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
const FINGERPRINT_MASK = ~RANK_MASK;

/** Views over a table's buffer; only the buffer crosses threads, each thread makes its own views. */
export interface TokenTable {
  readonly buffer: SharedArrayBuffer;
  readonly tokenCount: number;
  /** Bytes of the longest token: a longer byte sequence has no rank. */
  readonly longest: number;
  readonly offsets: Uint32Array;
  readonly slots: Uint32Array;
  readonly pool: Uint8Array;
}

/** 32-bit FNV-1a of bytes[start, end), with its high bits folded into the low ones for the slot index. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return (hash ^ (hash >>> 15)) >>> 0;
}

/** The rank of the token whose bytes are bytes[start, end), or -1 when there is none. */
export function rankOf(table: TokenTable, bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length > table.longest) return -1;
  const { slots, offsets, pool } = table;
  const hash = hashBytes(bytes, start, end);
  const fingerprint = hash & FINGERPRINT_MASK;
  const mask = slots.length - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return -1;
    if ((entry & FINGERPRINT_MASK) !== fingerprint) continue;
    const rank = (entry & RANK_MASK) - 1;
    const from = offsets[rank]!;
    if (offsets[rank + 1]! - from !== length) continue;
    let i = 0;
    while (i < length && pool[from + i] === bytes[start + i]) i++;
    if (i === length) return rank;
  }
}

/** Sizes a table is allocated with; the caller then fills it with `addToken` in rank order. */
export interface TableSizes {
  readonly tokenCount: number;
  readonly poolBytes: number;
  readonly longest: number;
}

/** An empty table with room for `sizes`: slots at least twice the tokens, so probes stay short. */
export function allocateTable(sizes: TableSizes): TokenTable {
  if (sizes.tokenCount >= RANK_MASK) throw new RangeError(`${sizes.tokenCount} tokens do not fit a slot`);
  let slotCount = 1;
  while (slotCount < sizes.tokenCount * 2) slotCount *= 2;
  const words = HEADER_WORDS + sizes.tokenCount + 1 + slotCount;
  const buffer = new SharedArrayBuffer(words * 4 + sizes.poolBytes);
  new Uint32Array(buffer, 0, HEADER_WORDS).set([
    MAGIC,
    sizes.tokenCount,
    slotCount,
    sizes.poolBytes,
    sizes.longest,
  ]);
  return viewTable(buffer)!;
}

/**
 * Puts the token bytes[0, length) at the next rank (`rank` must be that next rank: the offsets are written
 * in order) and indexes it. A byte sequence already in the table is refused: ranks are one-to-one.
 */
export function addToken(table: TokenTable, rank: number, bytes: Uint8Array, length: number): void {
  const { offsets, pool, slots } = table;
  const from = offsets[rank]!;
  for (let i = 0; i < length; i++) pool[from + i] = bytes[i]!;
  offsets[rank + 1] = from + length;
  const hash = hashBytes(bytes, 0, length);
  const fingerprint = hash & FINGERPRINT_MASK;
  const mask = slots.length - 1;
  let slot = hash & mask;
  for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
    if (
      (entry & FINGERPRINT_MASK) === fingerprint &&
      sameBytes(table, (entry & RANK_MASK) - 1, bytes, length)
    )
      throw new Error(`token ${rank} is listed twice`);
    slot = (slot + 1) & mask;
  }
  slots[slot] = (fingerprint | (rank + 1)) >>> 0;
}

function sameBytes(table: TokenTable, rank: number, bytes: Uint8Array, length: number): boolean {
  const from = table.offsets[rank]!;
  if (table.offsets[rank + 1]! - from !== length) return false;
  for (let i = 0; i < length; i++) if (table.pool[from + i] !== bytes[i]) return false;
  return true;
}

/**
 * Views over a buffer made by `allocateTable` (in this thread or another), or null when the buffer is
 * not one: a wrong size or header, so a stray value in `workerData` is never read as a table.
 */
export function viewTable(buffer: unknown): TokenTable | null {
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < HEADER_WORDS * 4) return null;
  const [magic, tokenCount, slotCount, poolBytes, longest] = new Uint32Array(buffer, 0, HEADER_WORDS);
  if (magic !== MAGIC || tokenCount === undefined || slotCount === undefined || poolBytes === undefined)
    return null;
  const words = HEADER_WORDS + tokenCount + 1 + slotCount;
  if (buffer.byteLength !== words * 4 + poolBytes || (slotCount & (slotCount - 1)) !== 0) return null;
  return {
    buffer,
    tokenCount,
    longest: longest ?? 0,
    offsets: new Uint32Array(buffer, HEADER_WORDS * 4, tokenCount + 1),
    slots: new Uint32Array(buffer, (HEADER_WORDS + tokenCount + 1) * 4, slotCount),
    pool: new Uint8Array(buffer, words * 4, poolBytes),
  };
}
