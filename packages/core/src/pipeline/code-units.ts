import { Buffer } from 'node:buffer';
import { LITTLE_ENDIAN } from '../tier0/mask-tables.js';

/** The scratch kept between calls holds at most this many code units (2 MB); a longer text gets its own. */
const KEEP_UNITS = 1 << 20;
let scratch = new Uint16Array(1 << 12);
let scratchBytes = Buffer.from(scratch.buffer);

/**
 * The UTF-16 code units of `text` (lone surrogates as they are) in an array that the next call reuses:
 * read them before calling again. A loop over a typed array costs a fraction of what `charCodeAt` costs
 * on the line strings a block is split into (slices of it, each access finding the parent first), and
 * one native write fills the array.
 */
export function scratchCodeUnits(text: string): Uint16Array {
  let units = scratch;
  let bytes = scratchBytes;
  if (text.length > units.length) {
    units = new Uint16Array(Math.max(text.length, units.length * 2));
    bytes = Buffer.from(units.buffer);
    if (units.length <= KEEP_UNITS) {
      scratch = units;
      scratchBytes = bytes;
    }
  }
  if (LITTLE_ENDIAN) bytes.write(text, 0, 'utf16le');
  else for (let k = 0; k < text.length; k++) units[k] = text.charCodeAt(k);
  return units;
}
