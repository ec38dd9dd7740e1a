import { codesToString } from './mask-tables.js';
import { type TokenTraits, traitsOf } from './template-merge-rules.js';

/**
 * Traits of the skeleton tokens met by earlier calls of the miner, kept between calls: a log's tokens
 * recur from block to block, and making a token's text and traits (a string, a character pass, two
 * regular expressions) cost more than the rest of its interning. Each call still numbers its tokens
 * afresh (`TokenTable`), so results never depend on what came before; only the traits object, which is
 * immutable, is shared.
 *
 * Open addressing over typed arrays, keyed by the token's hash and confirmed against its stored code
 * units. The cache is bounded: when it is full it starts again empty.
 */
const MAX_ENTRIES = 1 << 14;
const MAX_UNITS = 1 << 17;
const SLOTS = MAX_ENTRIES * 2;

const slotEntry = new Int32Array(SLOTS);
const slotHash = new Int32Array(SLOTS);
const store = new Uint16Array(MAX_UNITS);
const offsets = new Int32Array(MAX_ENTRIES);
const lengths = new Int32Array(MAX_ENTRIES);
const cached: TokenTraits[] = [];
let storeEnd = 0;

/** Tokens longer than this are made afresh (a long token rarely recurs, and would crowd the store). */
const MAX_TOKEN_UNITS = 256;

/** The traits of the token `units[from, from + len)`, whose hash is `h`. */
export function tokenTraits(units: Uint16Array, from: number, len: number, h: number): TokenTraits {
  if (len > MAX_TOKEN_UNITS) return traitsOf(codesToString(units.subarray(from, from + len), len));
  let slot = h & (SLOTS - 1);
  while (true) {
    const held = slotEntry[slot]!;
    if (held === 0) break;
    if (slotHash[slot] === h && sameUnits(held - 1, units, from, len)) return cached[held - 1]!;
    slot = (slot + 1) & (SLOTS - 1);
  }
  const traits = traitsOf(codesToString(units.subarray(from, from + len), len));
  if (cached.length === MAX_ENTRIES || storeEnd + len > MAX_UNITS) {
    clear();
    slot = h & (SLOTS - 1);
  }
  const entry = cached.length;
  for (let k = 0; k < len; k++) store[storeEnd + k] = units[from + k]!;
  offsets[entry] = storeEnd;
  lengths[entry] = len;
  storeEnd += len;
  cached.push(traits);
  slotEntry[slot] = entry + 1;
  slotHash[slot] = h;
  return traits;
}

function sameUnits(entry: number, units: Uint16Array, from: number, len: number): boolean {
  if (lengths[entry] !== len) return false;
  const at = offsets[entry]!;
  for (let k = 0; k < len; k++) if (store[at + k] !== units[from + k]) return false;
  return true;
}

function clear(): void {
  slotEntry.fill(0);
  cached.length = 0;
  storeEnd = 0;
}
