/**
 * The detailed pass of template mining's first stage, for tokens that mix words with digits or with
 * `=`, `.`, `/`, `:` (see template-mask.ts for the rules it applies): each character is marked variable
 * or not, and marked stretches print as masks.
 */
import {
  classOf,
  codesToString,
  digitBlind,
  F_DIGIT,
  F_DOT,
  F_EQUALS,
  F_SLASH,
  F_SPECIAL,
  F_WORD,
  FILE_EXTENSIONS,
  FLAGS,
  flagsOf,
  isJoinerOrSign,
  isSign,
  isWord,
  JOINER,
  LETTER,
  LITTLE_ENDIAN,
  MASK,
  mayBeListed,
  OTHER,
  packWord,
  SIGN,
  TOP_LEVEL_DOMAINS,
  UNIT_FLAGS,
  VALUE_WORDS,
} from './mask-tables.js';

const MASK_CODE = MASK.charCodeAt(0);

/** Per-character marks of the detailed pass (1 = variable); grown for long tokens. */
let marks = new Uint8Array(1024);

/** Marks `[from, to)` (a plain loop: TypedArray.fill has a call cost that dominates on short tokens). */
function mark(m: Uint8Array, from: number, to: number): void {
  for (let k = from; k < to; k++) m[k] = 1;
}

/**
 * Memo of the detailed pass, keyed by a token's shape: the token with every digit read as `0`. The pass
 * masks every word that holds a digit and decides everything else from letters, punctuation and word
 * lengths, so tokens of one shape (`blk_-1608999687919862906`, `sshd[24200]:`, `R02-M1-N0-C:J12-U11`) get
 * the same skeleton and the pass runs once per shape.
 *
 * The memo is a flat table rather than a Map of objects, because a lookup per mixed token is on the hot
 * path and pointer-chasing to scattered objects costs more than the compare: a shape's hash picks a pair
 * of neighbouring slots (two-way set-associative), a slot holds four numbers (hash, arena offset, shape
 * length, skeleton length), and the shape's code units (digits as `0`) followed by its skeleton's sit
 * back to back in one arena. The stored shape is compared with the token, so a hash collision just
 * misses and a slot is reused. When the arena fills up the memo starts again empty.
 */
const SHAPE_SLOTS = 1 << 14;
const SLOT_WIDTH = 4;
const slots = new Int32Array(SHAPE_SLOTS * SLOT_WIDTH);
const ARENA_UNITS = 1 << 20;
const arena = new Uint16Array(ARENA_UNITS);
let arenaEnd = 1; // offset 0 marks an empty slot

/**
 * The slot that last served a token with the same cue (length, and first, middle and last code unit read
 * with digits as `0`): most mixed tokens repeat a recent shape, and checking that guess costs one
 * compare, where a lookup needs a hash over the whole token as well.
 */
const GUESS_BITS = 12;
const guessed = new Int32Array(1 << GUESS_BITS);

/**
 * Views of the arena and of the array tokens were last read from, so that shapes are compared two code
 * units at a time ({@link sameAsShape}).
 */
const arenaView = new DataView(arena.buffer);
let viewedUnits: Uint16Array | null = null;
let unitsView: DataView = new DataView(new ArrayBuffer(0));

/** Does the shape stored at `offset` equal `t[start, start + len)` read with digits as `0`? */
function sameShape(t: Uint16Array, start: number, len: number, offset: number): boolean {
  if (!LITTLE_ENDIAN) return sameShapeByUnit(t, start, len, arena, offset);
  if (t !== viewedUnits) {
    viewedUnits = t;
    unitsView = new DataView(t.buffer, t.byteOffset, t.byteLength);
  }
  return sameAsShape(unitsView, start * 2, arenaView, offset * 2, len);
}

/**
 * Are the `len` code units at byte `from` of `units`, read with digits as `0`, the shape at byte `at` of
 * `shapes`? Two units a step, each word made digit-blind at once ({@link digitBlind}); little-endian reads
 * (with a literal byte order, which V8 compiles to a plain load), so only for a little-endian platform.
 */
export function sameAsShape(
  units: DataView,
  from: number,
  shapes: DataView,
  at: number,
  len: number,
): boolean {
  const pairsEnd = (len >>> 1) * 4;
  let k = 0;
  for (; k < pairsEnd; k += 4) {
    if (digitBlind(units.getInt32(from + k, true)) !== shapes.getInt32(at + k, true)) return false;
  }
  if ((len & 1) === 0) return true;
  const c = units.getUint16(from + k, true);
  return ((c - 48) >>> 0 < 10 ? 48 : c) === shapes.getUint16(at + k, true);
}

/** {@link sameAsShape} one code unit at a time, on the arrays themselves (any byte order). */
export function sameShapeByUnit(
  t: Uint16Array,
  start: number,
  len: number,
  shapes: Uint16Array,
  offset: number,
): boolean {
  for (let k = 0; k < len; k++) {
    const c = t[start + k]!;
    if (((c - 48) >>> 0 < 10 ? 48 : c) !== shapes[offset + k]) return false;
  }
  return true;
}

/** Copies the skeleton stored in `slot` (after its shape of `len` units) to `out` at `at`. */
function emitSkeleton(slot: number, len: number, out: Uint16Array, at: number): number {
  const from = slots[slot + 1]! + len;
  const to = from + slots[slot + 3]!;
  for (let q = from; q < to; q++) out[at++] = arena[q]!;
  return at;
}

/**
 * Writes the skeleton of the mixed token `t[start, end)` (whose scan saw the character flags `seen`) to
 * `out` at `at`, and returns the end of what it wrote. The skeleton is never longer than the token.
 */
export function detailedSkeletonInto(
  t: Uint16Array,
  start: number,
  end: number,
  seen: number,
  out: Uint16Array,
  at: number,
): number {
  const oneWord = oneWordSkeletonInto(t, start, end, seen, out, at);
  if (oneWord >= 0) return oneWord;
  const len = end - start;
  // First guess: the slot that served the token's cue last, confirmed by the compare a lookup needs.
  const first = t[start]!;
  const last = t[end - 1]!;
  const middle = t[start + (len >>> 1)]!;
  const cue =
    (Math.imul(len, 0x9e3779b1) ^
      Math.imul((first - 48) >>> 0 < 10 ? 48 : first, 0x85ebca6b) ^
      Math.imul((last - 48) >>> 0 < 10 ? 48 : last, 0xc2b2ae35) ^
      Math.imul((middle - 48) >>> 0 < 10 ? 48 : middle, 0x27d4eb2f)) >>>
    (32 - GUESS_BITS);
  const guess = guessed[cue]!;
  if (slots[guess + 2] === len && slots[guess + 1] !== 0 && sameShape(t, start, len, slots[guess + 1]!)) {
    return emitSkeleton(guess, len, out, at);
  }
  // Two FNV-1a lanes (even and odd positions) halve the multiply chain; a final mix spreads them.
  let even = 0x811c9dc5 ^ len;
  let odd = 0x050c5d1f;
  let j = start;
  for (; j + 1 < end; j += 2) {
    const a = t[j]!;
    const b = t[j + 1]!;
    even = Math.imul(even ^ ((a - 48) >>> 0 < 10 ? 48 : a), 0x01000193);
    odd = Math.imul(odd ^ ((b - 48) >>> 0 < 10 ? 48 : b), 0x01000193);
  }
  if (j < end) {
    const a = t[j]!;
    even = Math.imul(even ^ ((a - 48) >>> 0 < 10 ? 48 : a), 0x01000193);
  }
  let h = Math.imul(even ^ ((odd << 17) | (odd >>> 15)), 0x85ebca6b);
  h ^= h >>> 13;
  const pair = (h & (SHAPE_SLOTS - 2)) * SLOT_WIDTH;
  for (let s = pair; s < pair + 2 * SLOT_WIDTH; s += SLOT_WIDTH) {
    const offset = slots[s + 1]!;
    if (slots[s] !== h || offset === 0 || slots[s + 2] !== len || !sameShape(t, start, len, offset)) continue;
    guessed[cue] = s;
    return emitSkeleton(s, len, out, at);
  }
  // A new shape (rare once a log's shapes are known): run the detailed pass on it.
  const text = codesToString(t.subarray(start, end), len);
  const shape = (seen & F_DIGIT) !== 0 ? text.replace(/[0-9]/g, '0') : text;
  const skeleton = maskToken(shape, seen);
  if (len > ARENA_UNITS >>> 4) {
    // A huge token is not worth a place in the memo.
    for (let k = 0; k < skeleton.length; k++) out[at++] = skeleton.charCodeAt(k);
    return at;
  }
  if (arenaEnd + len + skeleton.length > ARENA_UNITS) {
    slots.fill(0);
    arenaEnd = 1;
  }
  // Fill an empty slot of the pair, else replace one chosen by a hash bit.
  const slot =
    slots[pair + 1] === 0
      ? pair
      : slots[pair + SLOT_WIDTH + 1] === 0
        ? pair + SLOT_WIDTH
        : pair + ((h >>> 20) & 1) * SLOT_WIDTH;
  guessed[cue] = slot;
  slots[slot] = h;
  slots[slot + 1] = arenaEnd;
  slots[slot + 2] = len;
  slots[slot + 3] = skeleton.length;
  for (let k = 0; k < len; k++) arena[arenaEnd++] = shape.charCodeAt(k);
  for (let k = 0; k < skeleton.length; k++) {
    const c = skeleton.charCodeAt(k);
    arena[arenaEnd++] = c;
    out[at++] = c;
  }
  return at;
}

/**
 * The skeleton of a mixed token that is one word holding a digit, between punctuation other than `=`,
 * `.`, `/` and `:` (`0x1f`, `113d3a99c3da401f`, `(J18)`), written straight to `out` at `at`; -1 for any
 * other token. {@link maskToken} masks such a word (and a sign just before it) and keeps the rest: its
 * other rules need a second word, `=`, `.` or `/`. Written here, the token skips the memo, where hex ids
 * would bring a new shape line after line (each a miss and a run of the pass).
 */
export function oneWordSkeletonInto(
  t: Uint16Array,
  start: number,
  end: number,
  seen: number,
  out: Uint16Array,
  at: number,
): number {
  if ((seen & F_DIGIT) === 0 || (seen & F_SPECIAL) !== 0) return -1;
  // A digit is a word character, so the token has a word and this stops before `end`.
  let ws = start;
  while ((UNIT_FLAGS[t[ws]!]! & F_WORD) === 0) ws++;
  let we = ws + 1;
  while (we < end && (UNIT_FLAGS[t[we]!]! & F_WORD) !== 0) we++;
  for (let k = we; k < end; k++) if ((UNIT_FLAGS[t[k]!]! & F_WORD) !== 0) return -1;
  const masked = ws > start && isSign(t[ws - 1]!) ? ws - 1 : ws;
  for (let k = start; k < masked; k++) out[at++] = t[k]!;
  out[at++] = MASK_CODE;
  for (let k = we; k < end; k++) out[at++] = t[k]!;
  return at;
}

/** The detailed pass for a mixed token: marks variable characters, then prints them as masks. */
export function maskToken(token: string, seen: number): string {
  const len = token.length;
  if (marks.length < len) marks = new Uint8Array(Math.max(len, marks.length * 2));
  const m = marks;
  for (let k = 0; k < len; k++) m[k] = 0;

  // Words: digit-bearing ones, hex groups glued to them, calendar words and literals.
  let wordCount = 0;
  let wordChars = 0;
  let maskedWordChars = 0;
  let prevMaskedEnd = -2;
  let j = 0;
  while (j < len) {
    let c = token.charCodeAt(j);
    let f = c < 128 ? FLAGS[c]! : flagsOf(c);
    if ((f & F_WORD) === 0) {
      j++;
      continue;
    }
    const ws = j;
    let hasDigit = false;
    let allHex = true;
    do {
      if ((f & F_DIGIT) !== 0) hasDigit = true;
      else if (allHex && !((c >= 97 && c <= 102) || (c >= 65 && c <= 70))) allHex = false;
      if (++j >= len) break;
      c = token.charCodeAt(j);
      f = c < 128 ? FLAGS[c]! : flagsOf(c);
    } while ((f & F_WORD) !== 0);
    wordCount++;
    wordChars += j - ws;
    let masked = hasDigit || (allHex && j - ws >= 8);
    if (!masked && allHex && ws - prevMaskedEnd === 1 && isJoinerOrSign(token.charCodeAt(ws - 1)))
      masked = true;
    if (
      !masked &&
      j - ws >= 3 &&
      j - ws <= 9 &&
      mayBeListed(token, ws, j) &&
      VALUE_WORDS.has(packWord(token, ws, j))
    ) {
      masked = true;
    }
    if (masked) {
      let s = ws;
      if (s > 0 && isSign(token.charCodeAt(s - 1)) && (s < 2 || !isWord(token.charCodeAt(s - 2)))) s--;
      mark(m, s, j);
      maskedWordChars += j - ws;
      prevMaskedEnd = j;
    }
  }

  // key="value": a quoted value is one variable. A bare word value (`user=root`, `tty=ssh`) may be what
  // tells two events apart, so it stays and the miner's second stage decides from how many values it takes.
  let keyValue = false;
  if ((seen & F_EQUALS) !== 0) {
    for (let q = token.indexOf('='); q > 0; q = token.indexOf('=', q + 1)) {
      if (!isWord(token.charCodeAt(q - 1))) continue;
      keyValue = true;
      const quote = q + 1 < len ? token.charCodeAt(q + 1) : 0;
      if (quote !== 34 && quote !== 39) continue;
      let e = q + 1;
      while (e < len) {
        const c = token.charCodeAt(e);
        if (c === 44 || c === 59 || c === 38 || c === 41 || c === 93 || c === 125) break;
        e++;
      }
      if (e > q + 2) mark(m, q + 1, e);
    }
  }

  if ((seen & (F_DOT | F_SLASH)) !== 0) {
    // URLs: everything from the scheme on.
    const scheme = (seen & F_SLASH) !== 0 ? token.indexOf('://') : -1;
    if (scheme > 0) {
      let s = scheme;
      while (s > 0 && isWord(token.charCodeAt(s - 1))) s--;
      let e = len;
      while (e > s && !isWord(token.charCodeAt(e - 1)) && token.charCodeAt(e - 1) !== 47) e--;
      mark(m, s, e);
    }
    markNamesAndPaths(token, len);
  }

  // Mostly masked already: an id glued from words and joiners (`R25-M0-N7-C:J02-U01`, `blk_-42`) is one
  // variable — but `ret:1` and `PendingReds:0` keep their key, and `sshd[24200]:` its name.
  if (!keyValue && wordCount > 1 && maskedWordChars * 2 >= wordChars && maskedWordChars < wordChars) {
    let s = 0;
    while (s < len && !isWord(token.charCodeAt(s)) && classOf(token.charCodeAt(s)) !== SIGN) s++;
    let e = len;
    while (e > s && !isWord(token.charCodeAt(e - 1))) e--;
    let joined = true;
    for (let k = s; k < e && joined; k++) if (classOf(token.charCodeAt(k)) === OTHER) joined = false;
    if (joined && !hasColonKey(token, len)) mark(m, s, e);
  }
  return printMarked(token, len);
}

/** Does the token hold `name:value` with a name of two or more letters (`ret:1`, `PendingReds:0`)? */
function hasColonKey(token: string, len: number): boolean {
  for (let q = token.indexOf(':'); q > 1 && q + 1 < len; q = token.indexOf(':', q + 1)) {
    if (token.charCodeAt(q + 1) === 47) continue;
    let s = q;
    while (s > 0 && classOf(token.charCodeAt(s - 1)) === LETTER) s--;
    if (q - s >= 2 && (s === 0 || !isWord(token.charCodeAt(s - 1)))) return true;
  }
  return false;
}

/** Marks dotted names (`a.b.c`, `chrome.exe`, `zummit.com`) and paths (`/a/b`, `a/b/c`). */
function markNamesAndPaths(token: string, len: number): void {
  let j = 0;
  while (j < len) {
    const c = token.charCodeAt(j);
    if (!isWord(c) && c !== 47 && c !== 126) {
      j++;
      continue;
    }
    // A run of word characters, `.`, `-`, `_`, `/`, `~`.
    const s = j;
    let slashes = 0;
    let dottedParts = 0;
    let lastDot = -1;
    let lastWasWord = false;
    while (j < len) {
      const d = token.charCodeAt(j);
      if (isWord(d)) lastWasWord = true;
      else if (d === 46) {
        const nextIsWord = j + 1 < len && isWord(token.charCodeAt(j + 1));
        if (!nextIsWord) break;
        if (lastWasWord) dottedParts++;
        lastDot = j;
        lastWasWord = false;
      } else if (d === 47) {
        slashes++;
        lastWasWord = false;
      } else if (d === 45 || d === 95 || d === 126) lastWasWord = false;
      else break;
      j++;
    }
    let name = dottedParts >= 2 || slashes >= 2;
    if (!name && dottedParts === 1 && slashes === 0) {
      const ext = packWord(token, lastDot + 1, j);
      name = ext >= 0 && (FILE_EXTENSIONS.has(ext) || TOP_LEVEL_DOMAINS.has(ext));
    }
    if (name) {
      let e = j;
      while (e > s && !isWord(token.charCodeAt(e - 1)) && token.charCodeAt(e - 1) !== 47) e--;
      mark(marks, s, e);
    }
    if (j === s) j++;
  }
}

/** Prints a token with marked stretches as masks; stretches one joiner apart merge. */
function printMarked(token: string, len: number): string {
  let out = '';
  let copyFrom = 0;
  let k = 0;
  while (k < len) {
    if (marks[k] !== 1) {
      k++;
      continue;
    }
    out += token.slice(copyFrom, k) + MASK;
    while (k < len) {
      if (marks[k] === 1) k++;
      else if (k + 1 < len && marks[k + 1] === 1 && classOf(token.charCodeAt(k)) >= JOINER) k++;
      else break;
    }
    copyFrom = k;
  }
  return copyFrom === 0 ? token : out + token.slice(copyFrom);
}
