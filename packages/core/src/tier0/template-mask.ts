/**
 * First stage of template mining: one pass over a line's characters that turns it into a skeleton — the
 * line's tokens with every variable-looking part replaced by a mask character.
 *
 * Drain (He et al., ICWS 2017) and the LogPai benchmark mask variables with per-system regular
 * expressions. A handful of generic shapes do that work here for every system at once:
 * - a word (letters and digits) that holds a digit: numbers, hex ids, IPs, dates, versions, `dn228`;
 *   eight or more hex letters (`ffffffff`); a hex group glued to a number (UUID groups); a sign;
 * - month and weekday names, `true` / `false` / `null` (values, not words of the message);
 * - a quoted `key="value"`;
 * - dotted names of three or more parts (hosts, Java classes), file names and host names with a known
 *   extension or top-level domain, paths with two or more slashes, URLs;
 * - a number's unit (`1.17 KB`, `<1 sec`) joins the number;
 * - a token that is mostly masked already is masked whole (`R25-M0-N7-C:J02-U01`), unless it reads
 *   `key:value` or `key=value`.
 * Masked stretches separated by a single joiner (`.`, `:`, `-`, `/`, `,`, `_`) merge into one mask, so
 * `10.251.73.220:50010`, `2015-10-18` and `0.25` are each one mask and lines whose numbers differ in shape
 * still share a skeleton. Tokens are split at whitespace and at `|`; a bracketed field with spaces inside
 * (`[IPC Server handler 13 on 62270]`, a log4j thread name) stays one token so that lines align.
 *
 * Speed matters (the miner aims at a million lines a second on one core): one classifying scan per token
 * picks a path — plain word (copied as part of a stretch of the line), number (prefix + mask + suffix), or
 * the detailed pass for mixed tokens, memoised by the token's shape (digits read as `0`), so it runs once
 * per shape rather than once per token. No regular expression runs per token and no closure is created
 * per call; `seen` flags come from one table lookup per character. The scan reads UTF-16 code units from
 * a typed array rather than `charCodeAt` (lines are usually slices of one big string, and every
 * `charCodeAt` on a slice pays for finding its parent): lines are joined in batches and copied into the
 * array by one native `Buffer.write`. It writes the skeleton into a second reused array, so a line
 * allocates nothing.
 */

import { Buffer } from 'node:buffer';
import {
  BAR,
  CLOSE_BRACKET,
  codesToString,
  F_BRACKET,
  F_DIGIT,
  F_END,
  F_EQUALS,
  F_LETTER,
  F_SPACE,
  F_SPECIAL,
  F_WORD,
  GROUP_SPACE,
  isAsciiLetter,
  isDigit,
  isListedCodes,
  isSign,
  isWord,
  LISTED_SHAPES,
  LISTED_WORDS,
  LITTLE_ENDIAN,
  MASK,
  OPEN_BRACKET,
  UNIT_FLAGS,
  UNIT_WORDS,
  VALUE_WORDS,
} from './mask-tables.js';
import { detailedSkeletonInto } from './token-mask.js';

export { codesToString, GROUP_SPACE, MASK } from './mask-tables.js';

const GROUP_SPACE_CODE = GROUP_SPACE.charCodeAt(0);

/** Input: the UTF-16 code units of the text being scanned (a batch of lines joined by `\n`). */
const BATCH_UNITS = 1 << 16;
let input = new Uint16Array(BATCH_UNITS);
let inputBytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);

/** Copies `text` into {@link input} (grown for a long text, dropped back to its usual size after). */
function load(text: string): Uint16Array {
  if (text.length > input.length || (input.length > BATCH_UNITS && text.length <= BATCH_UNITS)) {
    input = new Uint16Array(Math.max(text.length, BATCH_UNITS));
    inputBytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  }
  // `Buffer.write` with utf16le copies code units as they are (lone surrogates too), little-endian.
  if (LITTLE_ENDIAN) inputBytes.write(text, 0, 'utf16le');
  else for (let k = 0; k < text.length; k++) input[k] = text.charCodeAt(k);
  return input;
}

/**
 * Output: the skeleton's code units, reused across lines. `words` views the same memory as 32-bit words
 * (two code units each) for hashing; the capacity stays even so that it covers every unit pair.
 */
const SKELETON_CAPACITY = 4096;
let codes = new Uint16Array(SKELETON_CAPACITY);
let words = new Uint32Array(codes.buffer);
let length = 0;

/** Makes room for `extra` more code units. */
function reserve(extra: number): void {
  if (length + extra <= codes.length) return;
  const grown = new Uint16Array(Math.max(length + extra + 1, codes.length * 2) & ~1);
  grown.set(codes.subarray(0, length));
  codes = grown;
  words = new Uint32Array(grown.buffer);
}

/** Appends `t[from, to)`. */
function emitText(t: Uint16Array, from: number, to: number): void {
  reserve(to - from);
  const c = codes;
  let k = length;
  if (to - from > 24) {
    // A long stretch: one native copy beats the loop despite the view it allocates.
    c.set(t.subarray(from, to), k);
    length = k + to - from;
    return;
  }
  for (let j = from; j < to; j++) c[k++] = t[j]!;
  length = k;
}

/** Appends one code unit. */
function emitCode(code: number): void {
  if (length >= codes.length) reserve(1);
  codes[length++] = code;
}

/** Receives each line's skeleton from {@link maskLines}, in line order. */
export interface SkeletonSink {
  /**
   * Called first for every line, with its code units `t[from, to)`: true when the sink already knows the
   * line's skeleton (then the line is not scanned and {@link take} is not called for it).
   */
  recall(t: Uint16Array, from: number, to: number): boolean;
  /**
   * `units[0, count)` is the line's skeleton; `units32` views the same memory as 32-bit words. The sink
   * may overwrite units past `count` (the buffer always has room for one more, the capacity being even).
   */
  take(units: Uint16Array, units32: Uint32Array, count: number): void;
}

/**
 * Computes the skeleton of every line, in order, and hands each to `sink` (the buffers it gets are reused
 * for the next line). Lines are joined in batches of about 64 K code units so that one native copy fills
 * the scan's input; a line longer than that is a batch of its own.
 */
export function maskLines(lines: readonly string[], sink: SkeletonSink): void {
  let i = 0;
  while (i < lines.length) {
    let j = i + 1;
    let units = lines[i]!.length;
    while (j < lines.length && units + 1 + lines[j]!.length <= BATCH_UNITS) units += 1 + lines[j++]!.length;
    const t = load(j === i + 1 ? lines[i]! : lines.slice(i, j).join('\n'));
    let at = 0;
    for (let k = i; k < j; k++) {
      const end = at + lines[k]!.length;
      if (!sink.recall(t, at, end)) {
        startSkeleton();
        scanSkeleton(t, at, end, false);
        sink.take(codes, words, length);
      }
      at = end + 1;
    }
    i = j;
  }
}

function startSkeleton(): void {
  if (codes.length > SKELETON_CAPACITY * 64) {
    codes = new Uint16Array(SKELETON_CAPACITY);
    words = new Uint32Array(codes.buffer);
  }
  length = 0;
}

/**
 * The skeleton of a line: tokens separated by single spaces, variable parts replaced by {@link MASK}.
 * Leading and trailing whitespace is dropped and inner whitespace runs count as one separator.
 */
export function skeletonOf(line: string): string {
  const t = load(line);
  startSkeleton();
  scanSkeleton(t, 0, line.length, false);
  return codesToString(codes, length);
}

/**
 * Appends the skeleton of `t[from, n)` to the output. `inPart`: the range is one part of a bracket group,
 * which holds no space, so it cannot hold a group of its own.
 */
function scanSkeleton(t: Uint16Array, from: number, n: number, inPart: boolean): void {
  const base = length;
  // Text is copied in stretches: [copyFrom, prevEnd) is original text already in skeleton form (tokens
  // joined by single spaces), flushed only when a token is rewritten or a separator is not one space.
  let copyFrom = from;
  let needSeparator = false; // a separator is owed before the next token (after a flush at a separator)
  let lastWasMask = false;
  let prevEnd = from;
  let i = from;
  while (i < n) {
    let code = t[i]!;
    let f = UNIT_FLAGS[code]!;
    if ((f & F_SPACE) !== 0) {
      const ws = i;
      while (++i < n) {
        if ((UNIT_FLAGS[t[i]!]! & F_SPACE) === 0) break;
      }
      if (i >= n || i - ws !== 1 || code !== 32 || needSeparator || ws === from) {
        if (copyFrom < ws) emitText(t, copyFrom, ws);
        copyFrom = i;
        needSeparator = length > base;
      }
      continue;
    }
    if (code === BAR) {
      if (copyFrom < prevEnd) emitText(t, copyFrom, prevEnd);
      if (length > base) emitCode(32);
      emitCode(BAR);
      copyFrom = prevEnd = ++i;
      needSeparator = true;
      lastWasMask = false;
      continue;
    }
    if (needSeparator) {
      emitCode(32);
      needSeparator = false;
    }
    const start = i;
    if (code === OPEN_BRACKET && !inPart) {
      const groupEnd = bracketGroupEnd(t, i, n);
      if (groupEnd > 0) {
        if (copyFrom < start) emitText(t, copyFrom, start);
        const tokenStart = length;
        groupSkeleton(t);
        lastWasMask = length > tokenStart && codes[length - 1] === 0;
        i = prevEnd = copyFrom = groupEnd;
        continue;
      }
    }
    // One tight scan to the token's end, collecting which character classes occur.
    let seen = 0;
    while (true) {
      seen |= f;
      if (++i >= n) break;
      code = t[i]!;
      f = UNIT_FLAGS[code]!;
      if ((f & F_END) !== 0) break;
    }
    const end = i;
    // A `=`, `.`, `/` or `:` matters only with a word character after it (`a.b`, `k=v`), not when it
    // just ends the token (`done.`, `Old:`).
    if ((seen & F_DIGIT) === 0 && ((seen & F_SPECIAL) === 0 || !specialInside(t, start, end))) {
      // Plain words: kept, unless a calendar word, a literal, or the unit of the number before.
      let first = start;
      while (first < end && !isAsciiLetter(t[first]!)) first++;
      if (
        end - start <= 12 &&
        first < end &&
        LISTED_SHAPES[((t[first]! | 32) - 97) * 16 + end - start] === 1
      ) {
        // The token's one ASCII word, if it has exactly one: `Dec`, `true,`, `KB)`.
        const ws = first;
        let we = ws;
        while (we < end && isAsciiLetter(t[we]!)) we++;
        let rest = we;
        while (rest < end && !isWord(t[rest]!)) rest++;
        let lead = start;
        while (lead < ws && !isWord(t[lead]!)) lead++;
        if (
          rest === end &&
          lead === ws &&
          we - ws <= 10 &&
          LISTED_WORDS[(((t[ws]! | 32) - 97) * 26 + (t[we - 1]! | 32) - 97) * 11 + we - ws] === 1
        ) {
          if (lastWasMask && ws === start && isListedCodes(UNIT_WORDS, t, ws, we)) {
            // `1.17 KB)`: the unit joins the previous mask; its trailing punctuation stays, glued to it.
            if (copyFrom < prevEnd) emitText(t, copyFrom, prevEnd);
            copyFrom = we;
            lastWasMask = false;
            prevEnd = end;
            continue;
          }
          if (isListedCodes(VALUE_WORDS, t, ws, we)) {
            emitText(t, copyFrom, ws);
            emitCode(0);
            copyFrom = we;
            lastWasMask = we === end;
            prevEnd = end;
            continue;
          }
        }
      }
      lastWasMask = false;
      prevEnd = end;
      continue;
    }
    if ((seen & F_LETTER) === 0 && (seen & F_EQUALS) === 0) {
      // Numbers, times, dates, IPs (`18:01:47,978`, `[10.30`, `-1`): one mask inside the punctuation.
      let p = start;
      while (p < end && !isDigit(t[p]!)) p++;
      let q = end;
      while (q > p && !isDigit(t[q - 1]!)) q--;
      if (p > start && isSign(t[p - 1]!) && (p - 1 === start || !isWord(t[p - 2]!))) p--;
      emitText(t, copyFrom, p);
      emitCode(0);
      copyFrom = q;
      lastWasMask = q === end;
      prevEnd = end;
      continue;
    }
    if (copyFrom < start) emitText(t, copyFrom, start);
    reserve(end - start);
    length = detailedSkeletonInto(t, start, end, seen, codes, length);
    copyFrom = prevEnd = end;
    lastWasMask = codes[length - 1] === 0;
  }
  if (copyFrom < prevEnd) emitText(t, copyFrom, prevEnd);
}

/** Does a word character follow a `=`, `.`, `/` or `:` somewhere in the token? */
function specialInside(t: Uint16Array, start: number, end: number): boolean {
  let afterSpecial = false;
  for (let j = start; j < end; j++) {
    const c = t[j]!;
    const f = UNIT_FLAGS[c]!;
    if ((f & F_SPECIAL) !== 0) afterSpecial = true;
    else if (afterSpecial && (f & F_WORD) !== 0) return true;
  }
  return false;
}

/** Parts of the bracket group {@link bracketGroupEnd} found last: start and end of each, then -1. */
const groupParts = new Int32Array(260);

/**
 * End (exclusive, at the end of the token holding `]`) of a bracket group spanning spaces, else -1. On
 * success the group's space-separated parts are in {@link groupParts}.
 */
function bracketGroupEnd(t: Uint16Array, start: number, n: number): number {
  const limit = Math.min(n, start + 256);
  let sawSpace = false;
  let parts = 0;
  groupParts[0] = start;
  for (let j = start + 1; j < limit; j++) {
    const c = t[j]!;
    const f = UNIT_FLAGS[c]!;
    if ((f & (F_SPACE | F_BRACKET)) === 0) continue;
    if ((f & F_SPACE) !== 0) {
      sawSpace = true;
      groupParts[parts * 2 + 1] = j;
      while (j + 1 < limit && (UNIT_FLAGS[t[j + 1]!]! & F_SPACE) !== 0) j++;
      groupParts[++parts * 2] = j + 1;
    } else if (c === CLOSE_BRACKET) {
      if (!sawSpace) return -1;
      let e = j + 1;
      while (e < n && (UNIT_FLAGS[t[e]!]! & F_END) === 0) e++;
      groupParts[parts * 2 + 1] = e;
      groupParts[parts * 2 + 2] = -1;
      return e;
    } else return -1; // `[` or `|`
  }
  return -1;
}

/**
 * `[AsyncDispatcher event handler]`, `[req-… - - -]`: a bracketed field with spaces is one token (a thread
 * or request context in log4j-style headers), so lines with different contexts align position by position.
 * Each space-separated part (as {@link bracketGroupEnd} left them) is scanned as a line of its own; parts
 * are joined by {@link GROUP_SPACE}.
 */
function groupSkeleton(t: Uint16Array): void {
  const tokenStart = length;
  for (let p = 0; groupParts[p]! >= 0; p += 2) {
    if (length > tokenStart) emitCode(GROUP_SPACE_CODE);
    scanSkeleton(t, groupParts[p]!, groupParts[p + 1]!, true);
  }
}

/**
 * A skeleton's printable text: masks shown as `<*>`, group spaces as spaces — as the miner prints its
 * templates (`TokenTable.template`, straight from code units); the tests print skeletons with it.
 */
export function printableTemplate(skeleton: string): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < skeleton.length; k++) {
    const c = skeleton.charCodeAt(k);
    if (c !== 0 && c !== GROUP_SPACE_CODE) continue;
    out += skeleton.slice(from, k) + (c === 0 ? '<*>' : ' ');
    from = k + 1;
  }
  return from === 0 ? skeleton : out + skeleton.slice(from);
}

/** Is the character class at `code` a variable's? Exposed for the miner's token tests. */
export function isMaskToken(token: string): boolean {
  return token.indexOf(MASK) >= 0;
}
