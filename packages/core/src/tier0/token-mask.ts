/**
 * The detailed pass of template mining's first stage, for tokens that mix words with digits or with
 * `=`, `.`, `/`, `:` (see template-mask.ts for the rules it applies): each character is marked variable
 * or not, and marked stretches print as masks.
 */
import {
  classOf,
  F_DIGIT,
  F_DOT,
  F_EQUALS,
  F_SLASH,
  F_WORD,
  FILE_EXTENSIONS,
  FLAGS,
  flagsOf,
  isJoinerOrSign,
  isSign,
  isWord,
  JOINER,
  LETTER,
  MASK,
  mayBeListed,
  OTHER,
  packWord,
  SIGN,
  TOP_LEVEL_DOMAINS,
  VALUE_WORDS,
} from './mask-tables.js';

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
 * the same skeleton and the pass runs once per shape. Keyed by a hash of the shape; an entry keeps the
 * shape and is used only when the token matches it (a hash collision just misses).
 */
const shapeCache = new Map<number, { readonly shape: string; readonly skeleton: string }>();
const SHAPE_CACHE_LIMIT = 65_536;

export function detailedSkeleton(line: string, start: number, end: number, seen: number): string {
  let h = 0x811c9dc5;
  for (let j = start; j < end; j++) {
    const c = line.charCodeAt(j);
    h = Math.imul(h ^ (c >= 48 && c <= 57 ? 48 : c), 0x01000193);
  }
  h = (h ^ (end - start)) >>> 0;
  const hit = shapeCache.get(h);
  if (hit !== undefined && hit.shape.length === end - start) {
    const shape = hit.shape;
    let k = 0;
    while (k < shape.length) {
      const c = line.charCodeAt(start + k);
      if ((c >= 48 && c <= 57 ? 48 : c) !== shape.charCodeAt(k)) break;
      k++;
    }
    if (k === shape.length) return hit.skeleton;
  }
  // A new shape (rare once a log's shapes are known): build it and run the detailed pass on it.
  const shape =
    (seen & F_DIGIT) !== 0 ? line.slice(start, end).replace(/[0-9]/g, '0') : line.slice(start, end);
  const skeleton = maskToken(shape, seen);
  if (shapeCache.size >= SHAPE_CACHE_LIMIT) shapeCache.clear();
  shapeCache.set(h, { shape, skeleton });
  return skeleton;
}

/** The detailed pass for a mixed token: marks variable characters, then prints them as masks. */
function maskToken(token: string, seen: number): string {
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
