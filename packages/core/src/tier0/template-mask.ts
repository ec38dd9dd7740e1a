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
 * Speed matters (the miner must handle more than a million lines a second on one core): one classifying
 * scan per token picks a path — plain word (copied), number (prefix + mask + suffix), or the detailed pass
 * for mixed tokens, which is memoised because such tokens (component names, hosts) repeat. No regular
 * expression runs per token and no closure is created per call.
 */

/** The character that stands for a masked variable inside a skeleton (templates print it as `<*>`). */
export const MASK = '\u0000';
/** Stands for a space inside a bracketed group token (templates print it as a space). */
export const GROUP_SPACE = '\u0003';

const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const JOINER = 4;
const SIGN = 5;

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) CLASS[c] = LETTER;
  else if (c >= 48 && c <= 57) CLASS[c] = DIGIT;
}
for (const ch of ' \t\v\f\r\n') CLASS[ch.charCodeAt(0)] = SPACE;
for (const ch of '.:/,_') CLASS[ch.charCodeAt(0)] = JOINER;
for (const ch of '-+') CLASS[ch.charCodeAt(0)] = SIGN;

/** `=`, `.`, `/`, `:` followed by a word character send a token to the detailed pass. */
const SPECIAL = new Uint8Array(128);
for (const ch of '=./:') SPECIAL[ch.charCodeAt(0)] = 1;

/** Bit flags per ASCII code for the token scan: one table lookup answers every question it asks. */
const F_LETTER = 1;
const F_DIGIT = 2;
const F_WORD = 3;
const F_SPACE = 4;
const F_END = 8; // whitespace or `|`: ends a token
const F_SPECIAL = 16;
const F_EQUALS = 32;
const F_DOT = 64;
const F_SLASH = 128;
const FLAGS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = CLASS[c]!;
  FLAGS[c] = k === LETTER ? F_LETTER : k === DIGIT ? F_DIGIT : k === SPACE ? F_SPACE | F_END : 0;
  if (SPECIAL[c] === 1) FLAGS[c]! |= F_SPECIAL;
}
FLAGS[61]! |= F_EQUALS;
FLAGS[46]! |= F_DOT;
FLAGS[47]! |= F_SLASH;
FLAGS[124]! |= F_END;

function flagsOf(code: number): number {
  return classOf(code) === SPACE ? F_SPACE | F_END : F_LETTER;
}

const BAR = 124;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function classOf(code: number): number {
  if (code < 128) return CLASS[code]!;
  return code === 0xa0 || code === 0x3000 || code === 0x2028 || code === 0x2029 ? SPACE : LETTER;
}

function isWord(code: number): boolean {
  // charCodeAt past the end gives NaN: not a word character.
  return code < 128 ? (FLAGS[code]! & F_WORD) !== 0 : !Number.isNaN(code) && classOf(code) === LETTER;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * A short ASCII word packed into a number (5 bits a letter, case folded), so the word lists below are
 * looked up without slicing or lower-casing: -1 when the word is not pure ASCII letters of 1–10.
 */
function packWord(text: string, start: number, end: number): number {
  if (end - start > 10 || end <= start) return -1;
  let key = 0;
  for (let j = start; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 128 || CLASS[c] !== LETTER) return -1;
    key = key * 32 + ((c | 32) & 31);
  }
  return key;
}

function packedSet(words: string): ReadonlySet<number> {
  const set = new Set<number>();
  for (const w of words.split(' ')) if (w.length > 0) set.add(packWord(w, 0, w.length));
  return set;
}

/** Words that are values wherever they stand: calendar names and literals. */
const VALUE_WORD_LIST =
  'jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august ' +
  'september october november december mon tue wed thu fri sat sun monday tuesday wednesday thursday ' +
  'friday saturday sunday true false null none nil undefined nan';
const VALUE_WORDS = packedSet(VALUE_WORD_LIST);
/** Units that follow a number: `1.17 KB`, `<1 sec` are one variable, not a variable and a word. */
const UNIT_WORD_LIST =
  'b kb mb gb tb pb kib mib gib tib byte bytes ms us ns s sec secs second seconds min mins minute minutes h hr hrs hour hours';
const UNIT_WORDS = packedSet(UNIT_WORD_LIST);
/** File extensions: `chrome.exe`, `cbscore.dll` name things (variables) although they have no digit. */
const FILE_EXTENSIONS = packedSet(
  'exe dll so dylib jar war class py pyc js mjs cjs ts tsx jsx java kt go rs rb php c cc cpp h hpp cs sh bat ps ' +
    'log txt json xml yaml yml toml ini cfg conf properties html htm css md csv tsv dat db sqlite tmp bak zip ' +
    'gz tgz tar bz xz png jpg jpeg gif svg pdf lock pid sock',
);
/** Common top-level domains: `zummit.com` is a host name (a variable) although it has two parts only. */
const TOP_LEVEL_DOMAINS = packedSet(
  'com net org edu gov mil int io co uk de fr jp cn ru br in it nl au ca es info biz local lan internal',
);

/**
 * Quick filter for the word lists: `[first letter × 16 + token length]` is 1 when some listed word with
 * that first letter fits a token of that length (the word plus up to two punctuation marks).
 */
const LISTED_SHAPES = new Uint8Array(26 * 16);
for (const words of [VALUE_WORD_LIST, UNIT_WORD_LIST]) {
  for (const w of words.split(' ')) {
    for (let len = w.length; len <= Math.min(12, w.length + 2); len++)
      LISTED_SHAPES[(w.charCodeAt(0) - 97) * 16 + len] = 1;
  }
}

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

function detailedSkeleton(line: string, start: number, end: number, seen: number): string {
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
  const shape = (seen & F_DIGIT) !== 0 ? line.slice(start, end).replace(/[0-9]/g, '0') : line.slice(start, end);
  const skeleton = maskToken(shape, seen);
  if (shapeCache.size >= SHAPE_CACHE_LIMIT) shapeCache.clear();
  shapeCache.set(h, { shape, skeleton });
  return skeleton;
}

/**
 * The skeleton of a line: tokens separated by single spaces, variable parts replaced by {@link MASK}.
 * Leading and trailing whitespace is dropped and inner whitespace runs count as one separator.
 */
export function skeletonOf(line: string): string {
  const n = line.length;
  // Text is copied in stretches: [copyFrom, prevEnd) is original text already in skeleton form (tokens
  // joined by single spaces), flushed only when a token is rewritten or a separator is not one space.
  let out = '';
  let copyFrom = 0;
  let needSeparator = false; // a separator is owed before the next token (after a flush at a separator)
  let lastWasMask = false;
  let prevEnd = 0;
  let i = 0;
  while (i < n) {
    let code = line.charCodeAt(i);
    let f = code < 128 ? FLAGS[code]! : flagsOf(code);
    if ((f & F_SPACE) !== 0) {
      const ws = i;
      while (++i < n) {
        const c = line.charCodeAt(i);
        if (((c < 128 ? FLAGS[c]! : flagsOf(c)) & F_SPACE) === 0) break;
      }
      if (i >= n || i - ws !== 1 || code !== 32 || needSeparator || ws === 0) {
        if (copyFrom < ws) out += line.slice(copyFrom, ws);
        copyFrom = i;
        needSeparator = out.length > 0;
      }
      continue;
    }
    if (code === BAR) {
      if (copyFrom < prevEnd) out += line.slice(copyFrom, prevEnd);
      out += out.length > 0 ? ' |' : '|';
      copyFrom = prevEnd = ++i;
      needSeparator = true;
      lastWasMask = false;
      continue;
    }
    if (needSeparator) {
      out += ' ';
      needSeparator = false;
    }
    const start = i;
    if (code === OPEN_BRACKET) {
      const groupEnd = bracketGroupEnd(line, i);
      if (groupEnd > 0) {
        if (copyFrom < start) out += line.slice(copyFrom, start);
        const token = groupSkeleton(line, start, groupEnd);
        out += token;
        lastWasMask = token.charCodeAt(token.length - 1) === 0;
        i = prevEnd = copyFrom = groupEnd;
        continue;
      }
    }
    // One tight scan to the token's end, collecting which character classes occur.
    let seen = 0;
    while (true) {
      seen |= f;
      if (++i >= n) break;
      code = line.charCodeAt(i);
      f = code < 128 ? FLAGS[code]! : flagsOf(code);
      if ((f & F_END) !== 0) break;
    }
    const end = i;
    // A `=`, `.`, `/` or `:` matters only with a word character after it (`a.b`, `k=v`), not when it
    // just ends the token (`done.`, `Old:`).
    if ((seen & F_DIGIT) === 0 && ((seen & F_SPECIAL) === 0 || !specialInside(line, start, end))) {
      // Plain words: kept, unless a calendar word, a literal, or the unit of the number before.
      let first = start;
      while (first < end && !isAsciiLetter(line.charCodeAt(first))) first++;
      const c0 = line.charCodeAt(first) | 32;
      if (end - start <= 12 && first < end && LISTED_SHAPES[(c0 - 97) * 16 + end - start] === 1) {
        // The token's one ASCII word, if it has exactly one: `Dec`, `true,`, `KB)`.
        let ws = start;
        while (ws < end && !isAsciiLetter(line.charCodeAt(ws))) ws++;
        let we = ws;
        while (we < end && isAsciiLetter(line.charCodeAt(we))) we++;
        let rest = we;
        while (rest < end && !isWord(line.charCodeAt(rest))) rest++;
        let lead = start;
        while (lead < ws && !isWord(line.charCodeAt(lead))) lead++;
        if (ws < end && rest === end && lead === ws) {
          if (lastWasMask && ws === start && isListed(UNIT_WORDS, line, ws, we)) {
            // `1.17 KB)`: the unit joins the previous mask; its trailing punctuation stays, glued to it.
            if (copyFrom < prevEnd) out += line.slice(copyFrom, prevEnd);
            copyFrom = we;
            lastWasMask = false;
            prevEnd = end;
            continue;
          }
          if (isListed(VALUE_WORDS, line, ws, we)) {
            out += line.slice(copyFrom, ws) + MASK;
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
      while (p < end && !isDigit(line.charCodeAt(p))) p++;
      let q = end;
      while (q > p && !isDigit(line.charCodeAt(q - 1))) q--;
      if (p > start && isSign(line.charCodeAt(p - 1)) && (p - 1 === start || !isWord(line.charCodeAt(p - 2))))
        p--;
      out += line.slice(copyFrom, p) + MASK;
      copyFrom = q;
      lastWasMask = q === end;
      prevEnd = end;
      continue;
    }
    const token = detailedSkeleton(line, start, end, seen);
    out += copyFrom < start ? line.slice(copyFrom, start) + token : token;
    copyFrom = prevEnd = end;
    lastWasMask = token.charCodeAt(token.length - 1) === 0;
  }
  return copyFrom < prevEnd ? out + line.slice(copyFrom, prevEnd) : out;
}

/** Does a word character follow a `=`, `.`, `/` or `:` somewhere in the token? */
function specialInside(line: string, start: number, end: number): boolean {
  let afterSpecial = false;
  for (let j = start; j < end; j++) {
    const c = line.charCodeAt(j);
    const f = c < 128 ? FLAGS[c]! : F_LETTER;
    if ((f & F_SPECIAL) !== 0) afterSpecial = true;
    else if (afterSpecial && (f & F_WORD) !== 0) return true;
  }
  return false;
}

function isJoinerOrSign(code: number): boolean {
  // . : / , _ - +
  return (
    code === 46 || code === 58 || code === 47 || code === 44 || code === 95 || code === 45 || code === 43
  );
}

/** Cheap pre-check before packing a word: does any listed word start with its letter at its length? */
function mayBeListed(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start) | 32;
  return c >= 97 && c <= 122 && end - start <= 12 && LISTED_SHAPES[(c - 97) * 16 + end - start] === 1;
}

function isSign(code: number): boolean {
  return code === 45 || code === 43;
}

/** Is the ASCII word `text[start, end)` in the packed word list? Words longer than 10 never are. */
function isListed(list: ReadonlySet<number>, text: string, start: number, end: number): boolean {
  return end - start <= 10 && list.has(packWord(text, start, end));
}

/** End (exclusive, at the end of the token holding `]`) of a bracket group spanning spaces, else -1. */
function bracketGroupEnd(line: string, start: number): number {
  const limit = Math.min(line.length, start + 256);
  let sawSpace = false;
  for (let j = start + 1; j < limit; j++) {
    const c = line.charCodeAt(j);
    if (c === OPEN_BRACKET || c === BAR) return -1;
    if (classOf(c) === SPACE) sawSpace = true;
    else if (c === CLOSE_BRACKET) {
      if (!sawSpace) return -1;
      let e = j + 1;
      while (e < line.length && classOf(line.charCodeAt(e)) !== SPACE && line.charCodeAt(e) !== BAR) e++;
      return e;
    }
  }
  return -1;
}

/**
 * `[AsyncDispatcher event handler]`, `[req-… - - -]`: a bracketed field with spaces is one token (a thread
 * or request context in log4j-style headers), so lines with different contexts align position by position.
 */
function groupSkeleton(line: string, start: number, end: number): string {
  let token = '';
  let j = start;
  while (j < end) {
    while (j < end && classOf(line.charCodeAt(j)) === SPACE) j++;
    const s = j;
    while (j < end && classOf(line.charCodeAt(j)) !== SPACE) j++;
    if (j > s) {
      const part = skeletonOf(line.slice(s, j));
      token += token.length > 0 ? GROUP_SPACE + part : part;
    }
  }
  return token;
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

/** A template's printable text: masks shown as `<*>`, group spaces as spaces. */
export function printableTemplate(skeleton: string): string {
  let t = skeleton.includes(MASK) ? skeleton.split(MASK).join('<*>') : skeleton;
  if (t.includes(GROUP_SPACE)) t = t.split(GROUP_SPACE).join(' ');
  return t;
}

/** Is the character class at `code` a variable's? Exposed for the miner's token tests. */
export function isMaskToken(token: string): boolean {
  return token.indexOf(MASK) >= 0;
}
