import { doubledSlots, SpareSlots } from './hash-slots.js';
import { groupSkeletons } from './template-grouping.js';
import { TokenTable } from './template-grouping-tables.js';
import { LineMemo } from './template-line-memo.js';
import { maskLines, type SkeletonSink } from './template-mask.js';

/** Result of {@link mineTemplates}. */
export interface MinedTemplates {
  /** Cluster index of every input line (index into `templates`). */
  clusterOf: Int32Array;
  /** Template text per cluster, `<*>` where a variable stands. */
  templates: string[];
}

/**
 * Groups log lines by template (Drain / LogPai family, no per-system settings): every line is reduced to
 * its skeleton in one character scan (`template-mask.ts`) unless a line equal to it but for its digits
 * came before (`template-line-memo.ts`), equal skeletons are interned ({@link SkeletonInterner}), and
 * the distinct skeletons are merged into templates (`template-grouping.ts`). The result does not depend
 * on line order, and an empty line is a template of its own (the empty template).
 *
 * Speed (the target is 1.5 million lines a second on one core, `pnpm bench:speed`): no step allocates per
 * line; the scan reads and writes typed arrays, and hashing, interning and grouping work on code units
 * and token ids rather than strings, which are made once per distinct token.
 */
export function mineTemplates(lines: readonly string[]): MinedTemplates {
  let oversized = 0;
  for (const line of lines) if (line.length > MAX_MINED_LINE) oversized++;
  if (oversized === 0) return mineLines(lines);
  const mined = mineLines(lines.filter((line) => line.length <= MAX_MINED_LINE));
  const own = mined.templates.length;
  const clusterOf = new Int32Array(lines.length);
  for (let i = 0, k = 0; i < lines.length; i++) {
    clusterOf[i] = lines[i]!.length > MAX_MINED_LINE ? own : mined.clusterOf[k++]!;
  }
  return { clusterOf, templates: [...mined.templates, '<*>'] };
}

/**
 * Lines longer than this are not scanned token by token: a minified bundle, a base64 blob or a 100 MB
 * line of output has no template worth the seconds and gigabytes the scan would take, so such lines
 * share one cluster whose template is a single variable.
 */
export const MAX_MINED_LINE = 64 * 1024;

function mineLines(lines: readonly string[]): MinedTemplates {
  const interner = new SkeletonInterner(lines.length);
  maskLines(lines, interner);
  interner.release();
  const { groupOf, templates } = groupSkeletons(interner.tokens, interner.skeletons, interner.counts);
  interner.tokens.release();
  const skeletonOfLine = interner.idOfLine;
  const clusterOf = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) clusterOf[i] = groupOf[skeletonOfLine[i]!]!;
  return { clusterOf, templates };
}

/** The interner's slots, and its store (up to {@link KEEP_STORE_WORDS}), kept for the next call. */
const spareSlots = new SpareSlots();
const FIRST_STORE_WORDS = 1 << 13;
const KEEP_STORE_WORDS = 1 << 18;
let spareStore: Uint32Array | null = null;

/**
 * Interns skeletons given as UTF-16 code units, numbering them in order of first appearance. A skeleton
 * is hashed straight from the scan's buffer, two code units at a time ({@link skeletonHash}), into an
 * open-addressing table (linear probing); a candidate is confirmed against a stored copy of its codes, so
 * two skeletons sharing a hash simply take two slots. A line allocates nothing, and a skeleton is split
 * into tokens once, when it first appears.
 */
class SkeletonInterner implements SkeletonSink {
  /** The tokens of the skeletons. */
  readonly tokens = new TokenTable();
  /** Distinct skeletons in order of first appearance, as token ids. */
  readonly skeletons: Int32Array[] = [];
  /** Lines per skeleton. */
  readonly counts: number[] = [];
  /** Skeleton id of every line taken so far. */
  readonly idOfLine: Int32Array;
  private lines = 0;
  /** Per slot: id + 1 (0 = empty), and that skeleton's hash. */
  private slotId: Int32Array;
  private slotHash: Int32Array;
  /**
   * Code units of every skeleton, back to back from even offsets, to confirm hash hits a pair of code
   * units (one 32-bit word) at a time.
   */
  private store: Uint32Array;
  private storeEnd = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];

  /** Lines already met (digits read as `0`), and the line being scanned when the memo missed. */
  private readonly memo = new LineMemo();
  private missed: Uint16Array = new Uint16Array(0);
  private missedFrom = 0;
  private missedTo = 0;

  constructor(lineCount: number) {
    this.idOfLine = new Int32Array(lineCount);
    ({ ids: this.slotId, hashes: this.slotHash } = spareSlots.take());
    this.store = spareStore ?? new Uint32Array(FIRST_STORE_WORDS);
    spareStore = null;
  }

  /**
   * Lets the next miner reuse the tables of the interner and of its line memo; called once every line is
   * taken (the skeletons, counts and ids stay).
   */
  release(): void {
    this.memo.release();
    spareSlots.give(this.slotId, this.slotHash);
    if (this.store.length <= KEEP_STORE_WORDS) spareStore = this.store;
    this.slotId = this.slotHash = new Int32Array(0);
    this.store = new Uint32Array(0);
  }

  recall(t: Uint16Array, from: number, to: number): boolean {
    const id = this.memo.find(t, from, to);
    if (id < 0) {
      this.missed = t;
      this.missedFrom = from;
      this.missedTo = to;
      return false;
    }
    this.counts[id]!++;
    this.idOfLine[this.lines++] = id;
    return true;
  }

  take(units: Uint16Array, units32: Uint32Array, count: number): void {
    // A pair straddling the end holds a stale code unit past it: zero it so hash and compare see one value.
    if ((count & 1) !== 0) units[count] = 0;
    const id = this.intern(units, units32, count, skeletonHash(units32, count));
    this.idOfLine[this.lines++] = id;
    this.memo.remember(this.missed, this.missedFrom, this.missedTo, id);
  }

  private intern(units: Uint16Array, units32: Uint32Array, count: number, hash: number): number {
    const mask = this.slotId.length - 1;
    let slot = hash & mask;
    while (true) {
      const held = this.slotId[slot]!;
      if (held === 0) break;
      if (this.slotHash[slot] === hash && this.sameAs(held - 1, units32, count)) {
        this.counts[held - 1]!++;
        return held - 1;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.add(units, units32, count);
    this.slotId[slot] = id + 1;
    this.slotHash[slot] = hash;
    if (this.skeletons.length * 2 > this.slotId.length) this.rehash();
    return id;
  }

  private sameAs(id: number, units32: Uint32Array, count: number): boolean {
    if (this.lengths[id] !== count) return false;
    const store = this.store;
    const at = this.offsets[id]!;
    const pairs = (count + 1) >>> 1;
    for (let w = 0; w < pairs; w++) if (store[at + w] !== units32[w]) return false;
    return true;
  }

  private add(units: Uint16Array, units32: Uint32Array, count: number): number {
    const id = this.skeletons.length;
    this.skeletons.push(this.tokens.tokenize(units, count));
    this.counts.push(1);
    const pairs = (count + 1) >>> 1;
    if (this.storeEnd + pairs > this.store.length) {
      const grown = new Uint32Array(Math.max(this.storeEnd + pairs, this.store.length * 2));
      grown.set(this.store.subarray(0, this.storeEnd));
      this.store = grown;
    }
    this.store.set(units32.subarray(0, pairs), this.storeEnd);
    this.offsets.push(this.storeEnd);
    this.lengths.push(count);
    this.storeEnd += pairs;
    return id;
  }

  /** Doubles the table (kept at most half full so probes stay short). */
  private rehash(): void {
    ({ ids: this.slotId, hashes: this.slotHash } = doubledSlots(this.slotId, this.slotHash));
  }
}

/**
 * Hash of a skeleton's code units, read as 32-bit words (two units each; an odd count's last word is
 * zero-padded and the count is mixed in). Four independent multiply–xorshift lanes shorten the
 * dependency chain; MurmurHash3's finaliser (Appleby) spreads the result over the low bits that pick a
 * slot.
 */
function skeletonHash(units32: Uint32Array, count: number): number {
  const pairs = (count + 1) >>> 1;
  let a = 0x9747b28c ^ count;
  let b = 0x3c6ef372;
  let c = 0x510e527f;
  let d = 0x1f83d9ab;
  let w = 0;
  for (; w + 3 < pairs; w += 4) {
    a = Math.imul(a ^ units32[w]!, 0xcc9e2d51);
    b = Math.imul(b ^ units32[w + 1]!, 0x1b873593);
    c = Math.imul(c ^ units32[w + 2]!, 0xcc9e2d51);
    d = Math.imul(d ^ units32[w + 3]!, 0x1b873593);
    a ^= a >>> 15;
    b ^= b >>> 15;
    c ^= c >>> 15;
    d ^= d >>> 15;
  }
  for (; w < pairs; w++) {
    a = Math.imul(a ^ units32[w]!, 0xcc9e2d51);
    a ^= a >>> 15;
  }
  let h = a ^ ((b << 8) | (b >>> 24)) ^ ((c << 16) | (c >>> 16)) ^ ((d << 24) | (d >>> 8));
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
