/**
 * Tables behind template mining's second stage (`template-grouping.ts`): token interning straight from a
 * skeleton's code units, union–find, and two open-addressing tables over typed arrays for the keys the
 * merge steps group by. They replace Maps keyed by strings or by large numbers, whose hashing and
 * allocation dominated the stage.
 */

import { doubledSlots, SpareSlots } from './hash-slots.js';
import { codesToString, GROUP_SPACE, MASK } from './mask-tables.js';
import { type TokenTraits, traitsOfUnits } from './template-merge-rules.js';

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Token ids of the skeleton being split (grown for a long skeleton, and dropped again after it). */
let scratch = new Int32Array(256);
const SCRATCH_KEEP = 1 << 16;
/** A template's printable code units, written before its one string is made (grown for long ones). */
let printed = new Uint16Array(1024);
const MASK_CODE = MASK.charCodeAt(0);
const GROUP_SPACE_CODE = GROUP_SPACE.charCodeAt(0);
/** `<`, `*`, `>`: a mask prints as `<*>`. */
const LESS = 60;
const STAR = 42;
const GREATER = 62;
/** A token table's slots, and its store (up to {@link SCRATCH_KEEP} units), kept for the next call. */
const spareSlots = new SpareSlots();
let spareStore: Uint16Array | null = null;

/**
 * Token interning: ids index `traits`, in order of first appearance. Id 0 is the bare mask. Skeletons
 * are split straight from their code units; a token is found by its FNV-1a hash (open addressing) and
 * compared with its stored code units, and a new token's traits are read from them too: no token costs
 * a string (only a template does, once, when it is printed).
 */
export class TokenTable {
  readonly traits: TokenTraits[] = [];
  private slots: Int32Array;
  private hashes: Int32Array;
  private store: Uint16Array;
  private storeEnd = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];

  constructor() {
    ({ ids: this.slots, hashes: this.hashes } = spareSlots.take());
    this.store = spareStore ?? new Uint16Array(1 << 14);
    spareStore = null;
    const mask = new Uint16Array([MASK.charCodeAt(0)]);
    this.id(mask, 0, 1, Math.imul(FNV_OFFSET ^ mask[0]!, FNV_PRIME));
  }

  /** Token ids of the skeleton `units[0, count)`: its parts between single spaces (none when empty). */
  tokenize(units: Uint16Array, count: number): Int32Array {
    if (count === 0) return new Int32Array(0);
    if (scratch.length <= count) scratch = new Int32Array(count * 2 + 2);
    let tokens = 0;
    let from = 0;
    let h = FNV_OFFSET;
    for (let k = 0; k <= count; k++) {
      const c = k < count ? units[k]! : 32;
      if (c !== 32) {
        h = Math.imul(h ^ c, FNV_PRIME);
        continue;
      }
      scratch[tokens++] = this.id(units, from, k, h);
      from = k + 1;
      h = FNV_OFFSET;
    }
    const ids = scratch.slice(0, tokens);
    if (scratch.length > SCRATCH_KEEP) scratch = new Int32Array(256); // after an unusually long line
    return ids;
  }

  /**
   * Lets the next table reuse this one's slots and store; called once every skeleton is split (the
   * tokens' traits and texts stay).
   */
  release(): void {
    spareSlots.give(this.slots, this.hashes);
    if (this.store.length <= SCRATCH_KEEP) spareStore = this.store;
    this.slots = this.hashes = new Int32Array(0);
    this.store = new Uint16Array(0);
  }

  /**
   * The template of the tokens `ids`: their texts joined by spaces, masks shown as `<*>` and group
   * spaces as spaces. Its code units are written from the stored tokens into one buffer and made a
   * string once: joined one `+=` at a time, a template cost two strings per token.
   */
  template(ids: Int32Array): string {
    let units = ids.length;
    for (let p = 0; p < ids.length; p++) units += 3 * this.lengths[ids[p]!]!;
    if (printed.length < units) printed = new Uint16Array(units * 2);
    const out = printed;
    const store = this.store;
    let at = 0;
    for (let p = 0; p < ids.length; p++) {
      if (p > 0) out[at++] = 32;
      const from = this.offsets[ids[p]!]!;
      const to = from + this.lengths[ids[p]!]!;
      for (let k = from; k < to; k++) {
        const c = store[k]!;
        if (c === MASK_CODE) {
          out[at++] = LESS;
          out[at++] = STAR;
          out[at++] = GREATER;
        } else out[at++] = c === GROUP_SPACE_CODE ? 32 : c;
      }
    }
    const text = codesToString(out, at);
    if (printed.length > SCRATCH_KEEP) printed = new Uint16Array(1024); // after an unusually long template
    return text;
  }

  /** The id of `units[from, to)`, whose FNV-1a hash (seed {@link FNV_OFFSET}) is `fnv`. */
  private id(units: Uint16Array, from: number, to: number, fnv: number): number {
    const len = to - from;
    let h = fnv ^ len;
    h ^= h >>> 15;
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (true) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      if (this.hashes[slot] === h && this.sameAs(held - 1, units, from, len)) return held - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.traits.length;
    if (this.storeEnd + len > this.store.length) {
      const grown = new Uint16Array(Math.max(this.storeEnd + len, this.store.length * 2));
      grown.set(this.store.subarray(0, this.storeEnd));
      this.store = grown;
    }
    for (let k = 0; k < len; k++) this.store[this.storeEnd + k] = units[from + k]!;
    this.offsets.push(this.storeEnd);
    this.lengths.push(len);
    this.storeEnd += len;
    this.traits.push(traitsOfUnits(units, from, len));
    this.slots[slot] = id + 1;
    this.hashes[slot] = h;
    if (this.traits.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private sameAs(id: number, units: Uint16Array, from: number, len: number): boolean {
    if (this.lengths[id] !== len) return false;
    const at = this.offsets[id]!;
    for (let k = 0; k < len; k++) if (this.store[at + k] !== units[from + k]) return false;
    return true;
  }

  private grow(): void {
    ({ ids: this.slots, hashes: this.hashes } = doubledSlots(this.slots, this.hashes));
  }
}

/** Union–find over indices 0…n-1 (path halving); a set's root is always its least index. */
export class UnionFind {
  readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
    return true;
  }
}

/**
 * The position keys of step 1 (a 32-bit hash and 21 more bits), each with the first group that gave it:
 * open addressing with linear probing over typed arrays, sized for every position up front, so the
 * common one-member key costs no allocation. A second member opens a bucket (a list, in order of
 * creation).
 */
export class PositionKeys {
  private keyA = new Int32Array(0);
  private keyB = new Int32Array(0);
  /** First group + 1 (0 = empty slot). */
  private first = new Int32Array(0);
  /** Bucket index + 1 (0 = one member so far). */
  private bucket = new Int32Array(0);
  private mask = 0;

  /** Elements its arrays hold (it keeps them from call to call). */
  get retained(): number {
    return this.first.length * 4;
  }

  /** Empties the table, sized for `count` keys (kept at most half full). */
  reset(count: number): void {
    let size = 16;
    while (size < count * 2) size *= 2;
    if (size > this.first.length) {
      this.keyA = new Int32Array(size);
      this.keyB = new Int32Array(size);
      this.first = new Int32Array(size);
      this.bucket = new Int32Array(size);
    } else {
      this.first.fill(0, 0, size);
      this.bucket.fill(0, 0, size);
    }
    this.mask = size - 1;
  }

  add(a: number, b: number, group: number, buckets: number[][]): void {
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & this.mask;
    while (true) {
      const held = this.first[slot]!;
      if (held === 0) {
        this.keyA[slot] = a;
        this.keyB[slot] = b;
        this.first[slot] = group + 1;
        return;
      }
      if (this.keyA[slot] === a && this.keyB[slot] === b) {
        const list = this.bucket[slot]!;
        if (list === 0) {
          buckets.push([held - 1, group]);
          this.bucket[slot] = buckets.length;
        } else buckets[list - 1]!.push(group);
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }
}

/**
 * Numbers sequences of integers in order of first appearance (ids 0, 1, …): a hash picks the slot and the
 * stored sequence is compared, so equal hashes never merge different keys.
 */
export class SequenceTable {
  private slots = new Int32Array(256);
  private hashes = new Int32Array(256);
  private store = new Int32Array(1024);
  private storeEnd = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];

  /** Elements its arrays hold (it keeps them from call to call). */
  get retained(): number {
    return this.slots.length * 2 + this.store.length;
  }

  /** Forgets every sequence (ids start again at 0). */
  clear(): void {
    if (this.lengths.length > 0) this.slots.fill(0);
    this.storeEnd = 0;
    this.offsets.length = 0;
    this.lengths.length = 0;
  }

  id(seq: Int32Array, length: number): number {
    let h = 0x811c9dc5 ^ length;
    for (let k = 0; k < length; k++) {
      h = Math.imul(h ^ seq[k]!, 0x01000193);
      h ^= h >>> 15;
    }
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (true) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      if (this.hashes[slot] === h && this.equals(held - 1, seq, length)) return held - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.lengths.length;
    if (this.storeEnd + length > this.store.length) {
      const grown = new Int32Array(Math.max(this.storeEnd + length, this.store.length * 2));
      grown.set(this.store.subarray(0, this.storeEnd));
      this.store = grown;
    }
    const store = this.store;
    const at = this.storeEnd;
    for (let k = 0; k < length; k++) store[at + k] = seq[k]!;
    this.offsets.push(at);
    this.lengths.push(length);
    this.storeEnd = at + length;
    this.slots[slot] = id + 1;
    this.hashes[slot] = h;
    if ((id + 1) * 2 > this.slots.length) {
      // Keep the table at most half full: double it and re-insert.
      ({ ids: this.slots, hashes: this.hashes } = doubledSlots(this.slots, this.hashes));
    }
    return id;
  }

  private equals(id: number, seq: Int32Array, length: number): boolean {
    if (this.lengths[id] !== length) return false;
    const at = this.offsets[id]!;
    for (let k = 0; k < length; k++) if (this.store[at + k] !== seq[k]) return false;
    return true;
  }
}
