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
 * per call; `seen` flags come from one table lookup per character.
 */

import {
  BAR,
  CLOSE_BRACKET,
  classOf,
  F_DIGIT,
  F_END,
  F_EQUALS,
  F_LETTER,
  F_SPACE,
  F_SPECIAL,
  F_WORD,
  FLAGS,
  flagsOf,
  GROUP_SPACE,
  isAsciiLetter,
  isDigit,
  isListed,
  isSign,
  isWord,
  LISTED_SHAPES,
  MASK,
  OPEN_BRACKET,
  SPACE,
  UNIT_WORDS,
  VALUE_WORDS,
} from './mask-tables.js';
import { detailedSkeleton } from './token-mask.js';

export { GROUP_SPACE, MASK } from './mask-tables.js';

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
