import { doubledSlots, SpareSlots } from './hash-slots.js';
import { digitBlind, LITTLE_ENDIAN } from './mask-tables.js';

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
 *
 * Every line passes through the compare, so it reads four code units at a time ({@link sameDigitBlind}):
 * the stored copy is the first line's own text, and most stretches of a line equal it as they stand (a
 * repeated line differs from the first only in some digits, and keeps many of those: dates, process ids),
 * so one float64 compare settles them and only the stretches that differ are read digit-blind. (A copy
 * stored digit-blind was slower: every stretch with a digit other than `0` then needs the second look.)
 * A line may start at an odd unit, so units are read through a DataView, which takes any byte offset.
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
const FIRST_STORE_UNITS = 1 << 15;
/**
 * A released store up to this size (2 MiB) is kept for the next memo: a fresh one per call would be
 * zeroed and regrown (doubling to about a megabyte on a 2,000-line log of long lines) every time.
 */
const KEEP_STORE_UNITS = 1 << 20;
let spareStore: Uint16Array | null = null;
/**
 * The guess table is handed on too, without clearing it: a guess is only ever a hint, confirmed by the
 * compare, so one left by an earlier memo costs at most a failed compare (see {@link LineMemo.find}).
 */
let spareGuesses: Int32Array | null = null;
/** The slots are handed on too, cleared. */
const spareSlots = new SpareSlots();

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

/**
 * Are the `len` code units at byte `aAt` of `a` and at byte `bAt` of `b` equal once every ASCII digit
 * is read as `0`? Four units are compared at once as a float64: equal floats have equal bits, but for
 * +0 and -0 (and NaNs are never equal), so only a pair of floats that differs, or is zero, is looked at
 * again as two words, digit-blind. Reads little-endian, so only for a little-endian platform (elsewhere
 * the units' bytes would come swapped): see {@link sameByUnit}. The byte order is a literal because V8
 * compiles a DataView read to a plain load only for a constant one.
 */
export function sameDigitBlind(a: DataView, aAt: number, b: DataView, bAt: number, len: number): boolean {
  const quadsEnd = (len >>> 2) * 8;
  let k = 0;
  for (; k < quadsEnd; k += 8) {
    const x = a.getFloat64(aAt + k, true);
    if (x === b.getFloat64(bAt + k, true) && x !== 0) continue;
    if (!sameWord(a.getInt32(aAt + k, true), b.getInt32(bAt + k, true))) return false;
    if (!sameWord(a.getInt32(aAt + k + 4, true), b.getInt32(bAt + k + 4, true))) return false;
  }
  if ((len & 2) !== 0) {
    if (!sameWord(a.getInt32(aAt + k, true), b.getInt32(bAt + k, true))) return false;
    k += 4;
  }
  if ((len & 1) === 0) return true;
  const x = a.getUint16(aAt + k, true);
  const y = b.getUint16(bAt + k, true);
  return ((x - 48) >>> 0 < 10 ? 48 : x) === ((y - 48) >>> 0 < 10 ? 48 : y);
}

/** Are two words of two code units each equal once digits read as `0`? */
function sameWord(x: number, y: number): boolean {
  return x === y || digitBlind(x) === digitBlind(y);
}

/** {@link sameDigitBlind} one code unit at a time, on the arrays themselves (any byte order). */
export function sameByUnit(
  a: Uint16Array,
  aFrom: number,
  b: Uint16Array,
  bFrom: number,
  len: number,
): boolean {
  for (let k = 0; k < len; k++) {
    const x = a[aFrom + k]!;
    const y = b[bFrom + k]!;
    if (((x - 48) >>> 0 < 10 ? 48 : x) !== ((y - 48) >>> 0 < 10 ? 48 : y)) return false;
  }
  return true;
}

/**
 * FNV-1a (four lanes) of the `len` code units at byte `at` of `view` with digits read as `0`, two units a
 * step (little-endian words, as in {@link sameDigitBlind}); an odd last unit is mixed in alone.
 */
function digitBlindHash(view: DataView, at: number, len: number): number {
  let a = 0x811c9dc5 ^ len;
  let b = 0x050c5d1f;
  let c = 0x1b873593;
  let d = 0x6a09e667;
  const pairsEnd = at + (len >>> 1) * 4;
  let k = at;
  for (; k + 12 < pairsEnd; k += 16) {
    a = Math.imul(a ^ digitBlind(view.getInt32(k, true)), 0x01000193);
    b = Math.imul(b ^ digitBlind(view.getInt32(k + 4, true)), 0x01000193);
    c = Math.imul(c ^ digitBlind(view.getInt32(k + 8, true)), 0x01000193);
    d = Math.imul(d ^ digitBlind(view.getInt32(k + 12, true)), 0x01000193);
  }
  for (; k < pairsEnd; k += 4) a = Math.imul(a ^ digitBlind(view.getInt32(k, true)), 0x01000193);
  if ((len & 1) !== 0) {
    const w = view.getUint16(k, true);
    b = Math.imul(b ^ ((w - 48) >>> 0 < 10 ? 48 : w), 0x01000193);
  }
  return finish(a, b, c, d);
}

/** {@link digitBlindHash} one code unit at a time (for a big-endian platform). */
function hashByUnit(t: Uint16Array, from: number, len: number): number {
  let a = 0x811c9dc5 ^ len;
  for (let j = from; j < from + len; j++) {
    const w = t[j]!;
    a = Math.imul(a ^ ((w - 48) >>> 0 < 10 ? 48 : w), 0x01000193);
  }
  return finish(a, 0x050c5d1f, 0x1b873593, 0x6a09e667);
}

/** Folds four hash lanes into one, MurmurHash3's finaliser (Appleby) spreading it over the low bits. */
function finish(a: number, b: number, c: number, d: number): number {
  let h = a ^ ((b << 8) | (b >>> 24)) ^ ((c << 16) | (c >>> 16)) ^ ((d << 24) | (d >>> 8));
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A DataView over all of `units`. */
function viewOf(units: Uint16Array): DataView {
  return new DataView(units.buffer, units.byteOffset, units.byteLength);
}

/** Skeleton ids of the lines met so far, keyed by their text with every ASCII digit read as `0`. */
export class LineMemo {
  /** Per slot: entry + 1 (0 = empty), and that entry's hash. */
  private slots: Int32Array;
  private hashes: Int32Array;
  /** Code units of every entry (the first line met of its kind, as it was), back to back. */
  private store: Uint16Array;
  private storeView: DataView;
  private storeEnd = 0;
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly ids: number[] = [];
  /**
   * Per cue ({@link lineCue}): entry + 1 of the last line with that cue (0 = none); may hold an earlier
   * memo's entries, so an entry past the last is no guess.
   */
  private guesses: Int32Array;
  /** The array lines were last read from, and a view of it. */
  private lineUnits: Uint16Array | null = null;
  private lineView: DataView = viewOf(new Uint16Array(0));
  /** Where the last miss of {@link find} would go. */
  private missHash = 0;
  private missSlot = -1;
  private missCue = 0;

  /** `maxUnits`: most code units stored (see {@link MAX_STORE_UNITS}). */
  constructor(private readonly maxUnits: number = MAX_STORE_UNITS) {
    this.store = spareStore ?? new Uint16Array(FIRST_STORE_UNITS);
    spareStore = null;
    this.storeView = viewOf(this.store);
    this.guesses = spareGuesses ?? new Int32Array(1 << CUE_BITS);
    spareGuesses = null;
    ({ ids: this.slots, hashes: this.hashes } = spareSlots.take());
  }

  /** Hands the store and tables on to the next memo (this one must not be used after). */
  release(): void {
    if (this.store.length <= KEEP_STORE_UNITS) spareStore = this.store;
    spareGuesses = this.guesses;
    spareSlots.give(this.slots, this.hashes);
    this.slots = this.hashes = new Int32Array(0);
    this.store = new Uint16Array(0);
    this.storeView = viewOf(this.store);
    this.guesses = new Int32Array(0);
    this.storeEnd = 0;
  }

  /**
   * The skeleton id of a line met before that equals `t[from, to)` with digits read as `0`, else -1; on
   * a miss, {@link remember} may record the line's id next.
   */
  find(t: Uint16Array, from: number, to: number): number {
    const len = to - from;
    this.missSlot = -1;
    if (len > MAX_LINE_UNITS) return -1;
    if (t !== this.lineUnits) {
      this.lineUnits = t;
      this.lineView = viewOf(t);
    }
    const view = this.lineView;
    // First guess: the entry that matched or was added for the last line with the same cue (its length
    // and five code units spread over it), confirmed by the compare a hashed lookup needs as well.
    const cue = len === 0 ? 0 : lineCue(t, from, len);
    const guess = this.guesses[cue]! - 1;
    if (
      guess >= 0 &&
      guess < this.ids.length &&
      this.lengths[guess] === len &&
      this.sameAs(guess, t, view, from, len)
    )
      return this.ids[guess]!;
    this.missCue = cue;
    const h = LITTLE_ENDIAN ? digitBlindHash(view, from * 2, len) : hashByUnit(t, from, len);
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (true) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      const e = held - 1;
      if (this.hashes[slot] === h && this.lengths[e] === len && this.sameAs(e, t, view, from, len)) {
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
      this.storeView = viewOf(grown);
    }
    const at = this.storeEnd;
    if (len > 16) this.store.set(t.subarray(from, to), at);
    else for (let k = 0; k < len; k++) this.store[at + k] = t[from + k]!;
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

  /** Does entry `e` equal the line `t[from, from + len)` (`view` views `t`) with digits read as `0`? */
  private sameAs(e: number, t: Uint16Array, view: DataView, from: number, len: number): boolean {
    const at = this.offsets[e]!;
    return LITTLE_ENDIAN
      ? sameDigitBlind(view, from * 2, this.storeView, at * 2, len)
      : sameByUnit(t, from, this.store, at, len);
  }

  /** Doubles the table (kept at most half full so probes stay short). */
  private grow(): void {
    ({ ids: this.slots, hashes: this.hashes } = doubledSlots(this.slots, this.hashes));
  }
}
