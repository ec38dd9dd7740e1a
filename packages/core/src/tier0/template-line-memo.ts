import { doubledSlots } from './hash-slots.js';

/**
 * Memo of template mining's first stage by line: a line's skeleton depends on its digits only through
 * where they stand. Every digit sits in a word that holds a digit, and such a word is always masked; the
 * rules read word lengths and character classes, never a digit's value (the per-token memo in
 * `token-mask.ts` rests on the same fact). So two lines that are equal once every ASCII digit is read as
 * `0` have one skeleton, and on real logs most lines repeat an earlier line that way (timestamps,
 * counters and ids of fixed width change, the rest does not: 81% of the Loghub-2k lines). Such a line
 * costs a hash and a compare instead of the scan, and the miner counts it under the known skeleton.
 *
 * Lines are found by an FNV-1a hash (four lanes) of their digit-normalised code units in an
 * open-addressing table, and confirmed against a stored copy, so a collision never merges two lines. A
 * first guess — the entry last met with the same cue (length and five sampled code units) — usually
 * saves the hash. (Rewriting the letters of masked words as well would catch hex ids too, but the extra
 * pass it needs cost more than the scans it saved.)
 */

/** Lines longer than this are not memoised (they rarely repeat, and a copy would cost their size). */
const MAX_LINE_UNITS = 4096;
const CUE_BITS = 14;
/**
 * Most code units the memo stores (16 MiB): it only saves scans, so a block of millions of distinct lines
 * stops adding entries there instead of holding a second copy of itself (and, while the store doubles,
 * a third); the skeletons come out the same either way.
 */
const MAX_STORE_UNITS = 1 << 23;

/** A cheap fingerprint of a non-empty line: its length and five digit-normalised code units. */
function lineCue(t: Uint16Array, from: number, len: number): number {
  const last = from + len - 1;
  const p = t[from]!;
  const q = t[from + (len >>> 2)]!;
  const r = t[from + (len >>> 1)]!;
  const s = t[last - (len >>> 2)]!;
  const u = t[last]!;
  const h =
    Math.imul(len, 0x9e3779b1) ^
    Math.imul((p - 48) >>> 0 < 10 ? 48 : p, 0x85ebca6b) ^
    Math.imul((q - 48) >>> 0 < 10 ? 48 : q, 0xc2b2ae35) ^
    Math.imul((r - 48) >>> 0 < 10 ? 48 : r, 0x27d4eb2f) ^
    Math.imul((s - 48) >>> 0 < 10 ? 48 : s, 0x165667b1) ^
    Math.imul((u - 48) >>> 0 < 10 ? 48 : u, 0x61c88647);
  return (h ^ (h >>> 15)) >>> (32 - CUE_BITS);
}

/** Skeleton ids of the lines met so far, keyed by their text with every ASCII digit read as `0`. */
export class LineMemo {
  /** Per slot: entry + 1 (0 = empty), and that entry's hash. */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** Digit-normalised code units of every entry, back to back. */
  private store = new Uint16Array(1 << 15);
  private storeEnd = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly ids: number[] = [];
  /** Per cue ({@link lineCue}): entry + 1 of the last line with that cue (0 = none). */
  private readonly guesses = new Int32Array(1 << CUE_BITS);
  /** Where the last miss of {@link find} would go. */
  private missHash = 0;
  private missSlot = -1;
  private missCue = 0;

  /** `maxUnits`: most code units stored (see {@link MAX_STORE_UNITS}). */
  constructor(private readonly maxUnits: number = MAX_STORE_UNITS) {}

  /**
   * The skeleton id of a line met before that equals `t[from, to)` with digits read as `0`, else -1; on
   * a miss, {@link remember} may record the line's id next.
   */
  find(t: Uint16Array, from: number, to: number): number {
    const len = to - from;
    this.missSlot = -1;
    if (len > MAX_LINE_UNITS) return -1;
    // First guess: the entry that matched or was added for the last line with the same cue (its length
    // and five code units spread over it), confirmed by the compare a hashed lookup needs as well.
    const cue = len === 0 ? 0 : lineCue(t, from, len);
    const guess = this.guesses[cue]! - 1;
    if (guess >= 0 && this.lengths[guess] === len && this.sameAs(guess, t, from, len))
      return this.ids[guess]!;
    this.missCue = cue;
    let a = 0x811c9dc5 ^ len;
    let b = 0x050c5d1f;
    let c = 0x1b873593;
    let d = 0x6a09e667;
    let j = from;
    for (; j + 3 < to; j += 4) {
      const w = t[j]!;
      const x = t[j + 1]!;
      const y = t[j + 2]!;
      const z = t[j + 3]!;
      a = Math.imul(a ^ ((w - 48) >>> 0 < 10 ? 48 : w), 0x01000193);
      b = Math.imul(b ^ ((x - 48) >>> 0 < 10 ? 48 : x), 0x01000193);
      c = Math.imul(c ^ ((y - 48) >>> 0 < 10 ? 48 : y), 0x01000193);
      d = Math.imul(d ^ ((z - 48) >>> 0 < 10 ? 48 : z), 0x01000193);
    }
    for (; j < to; j++) {
      const w = t[j]!;
      a = Math.imul(a ^ ((w - 48) >>> 0 < 10 ? 48 : w), 0x01000193);
    }
    let h = a ^ ((b << 8) | (b >>> 24)) ^ ((c << 16) | (c >>> 16)) ^ ((d << 24) | (d >>> 8));
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (true) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      const e = held - 1;
      if (this.hashes[slot] === h && this.lengths[e] === len && this.sameAs(e, t, from, len)) {
        this.guesses[cue] = held;
        return this.ids[e]!;
      }
      slot = (slot + 1) & mask;
    }
    this.missHash = h;
    this.missSlot = slot;
    return -1;
  }

  /** Records `id` as the skeleton of `t[from, to)`, the line {@link find} just missed. */
  remember(t: Uint16Array, from: number, to: number, id: number): void {
    if (this.missSlot < 0) return;
    const len = to - from;
    if (this.storeEnd + len > this.maxUnits) {
      this.missSlot = -1;
      return;
    }
    if (this.storeEnd + len > this.store.length) {
      const grown = new Uint16Array(
        Math.min(this.maxUnits, Math.max(this.storeEnd + len, this.store.length * 2)),
      );
      grown.set(this.store.subarray(0, this.storeEnd));
      this.store = grown;
    }
    const store = this.store;
    const at = this.storeEnd;
    for (let k = 0; k < len; k++) {
      const c = t[from + k]!;
      store[at + k] = (c - 48) >>> 0 < 10 ? 48 : c;
    }
    this.storeEnd = at + len;
    this.offsets.push(at);
    this.lengths.push(len);
    this.ids.push(id);
    this.slots[this.missSlot] = this.ids.length;
    this.guesses[this.missCue] = this.ids.length;
    this.hashes[this.missSlot] = this.missHash;
    this.missSlot = -1;
    if (this.ids.length * 2 > this.slots.length) this.grow();
  }

  private sameAs(e: number, t: Uint16Array, from: number, len: number): boolean {
    const store = this.store;
    const at = this.offsets[e]!;
    for (let k = 0; k < len; k++) {
      const c = t[from + k]!;
      if (((c - 48) >>> 0 < 10 ? 48 : c) !== store[at + k]) return false;
    }
    return true;
  }

  /** Doubles the table (kept at most half full so probes stay short). */
  private grow(): void {
    ({ ids: this.slots, hashes: this.hashes } = doubledSlots(this.slots, this.hashes));
  }
}
