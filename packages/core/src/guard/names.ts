/**
 * The names in a line — dotted names (`uvicorn.error`, `org.acme.IOException`) and paths
 * (`src/errors/index.ts`, `/tmp/fail.log`) — found in one pass, exactly as these regular expressions
 * define them:
 *
 *   DOTTED_NAME  /[A-Za-z_][\w-]*\.[A-Za-z_][\w.-]*\/g
 *   NAME         /(?:[\w.-]*\/)+[\w.-]*|[A-Za-z_][\w-]*\.[A-Za-z_][\w.-]*\/g
 *   JOINED_NAME  /[\w$-]+(?:[./\\][\w$-]+)+/g
 *   PATH_TOKEN   /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g   (the anchors' paths)
 *
 * Why not the expressions: they backtrack. At every start inside a long run of `[\w-]` with no `.`
 * (or of `[\w.-]` with no `/`), `[\w-]*` reads to the run's end before the next token fails, so the time
 * is quadratic in the run's length: a 20,000-character word in an error line took them about a second,
 * and a tool output can hold far longer ones. Here each character is read a bounded number of times.
 */

/** `[A-Za-z]`. */
const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
/** `\w` without the u flag: ASCII letters, digits and `_`. */
export const isWordCode = (c: number): boolean => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
/** `[A-Za-z_]`, where a dotted name's parts start. */
const isHead = (c: number): boolean => isLetter(c) || c === 0x5f;
/** `[\w-]`, a part of a dotted name. */
const isPart = (c: number): boolean => isWordCode(c) || c === 0x2d;
/** `[\w.-]`, a path's segment. */
const isSegment = (c: number): boolean => isPart(c) || c === 0x2e;
/** `[\w./-]`, a path. */
export const isPathChar = (c: number): boolean => isSegment(c) || c === 0x2f;
const SLASH = 0x2f;
const DOT = 0x2e;

/** Where the run of `test` characters from `i` ends. */
function runEnd(line: string, i: number, test: (c: number) => boolean): number {
  while (i < line.length && test(line.charCodeAt(i))) i++;
  return i;
}

/**
 * The dotted name that starts in the `[\w-]` stretch `line[from, to)` (`to` ends the stretch), as its
 * [start, end), or null. Every start inside the stretch reaches the same `to`, so the leftmost start is
 * the stretch's first `[A-Za-z_]`, and it matches when a `.` and a `[A-Za-z_]` follow the stretch; the
 * name then runs to the end of the `[\w.-]` after it.
 */
function dottedFrom(line: string, from: number, to: number): readonly [number, number] | null {
  let head = from;
  while (head < to && !isHead(line.charCodeAt(head))) head++;
  if (head === to || line.charCodeAt(to) !== DOT || !isHead(line.charCodeAt(to + 1))) return null;
  return [head, runEnd(line, to + 1, isSegment)];
}

/** DOTTED_NAME's matches in `line`, in order, as [start, end) pairs. */
export function dottedNames(line: string, found: (start: number, end: number) => void): void {
  for (let i = 0; i < line.length; ) {
    if (!isPart(line.charCodeAt(i))) {
      i++;
      continue;
    }
    const to = runEnd(line, i, isPart);
    const name = dottedFrom(line, i, to);
    if (name === null) i = to;
    else {
      found(name[0], name[1]);
      i = name[1];
    }
  }
}

/** Whether `line` holds a dotted name (DOTTED_NAME.test). */
export function hasDottedName(line: string): boolean {
  let found = false;
  dottedNames(line, () => {
    found = true;
  });
  return found;
}

/**
 * NAME's matches in `line`, in order. Its first branch matches at a start exactly when the `[\w.-]`
 * stretch from there ends at a `/`, and then takes the whole run of `[\w./-]`; every start in that
 * stretch shares its end, so a stretch is judged once. Where it does not, the second branch (a dotted
 * name) is sought inside the stretch, part by part.
 */
export function names(line: string, found: (start: number, end: number) => void): void {
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    if (c !== SLASH && !isSegment(c)) {
      i++;
      continue;
    }
    const to = runEnd(line, i, isSegment);
    if (line.charCodeAt(to) === SLASH) {
      const end = runEnd(line, to, isPathChar);
      found(i, end);
      i = end;
      continue;
    }
    for (let j = i; j < to; ) {
      if (line.charCodeAt(j) === DOT) {
        j++;
        continue;
      }
      const partEnd = runEnd(line, j, isPart);
      const name = dottedFrom(line, j, partEnd);
      if (name !== null) {
        found(name[0], name[1]);
        break;
      }
      j = partEnd;
    }
    i = to;
  }
}

/** `[\w$-]`, a part of a joined name. */
const isJoinedPart = (c: number): boolean => isPart(c) || c === 0x24;
/** `[./\\]`, what joins the parts of a joined name. */
const isJoint = (c: number): boolean => c === DOT || c === SLASH || c === 0x5c;

/**
 * JOINED_NAME's matches in `line`, in order: words joined by `.`, `/` or `\` (`com.acme.Test`,
 * `src\app.ts`). A match starts where a stretch of `[\w$-]` starts (every start inside it reaches the same
 * end), if a joint and another part follow that stretch; it then takes every further joint and part.
 */
export function joinedNames(line: string, found: (start: number, end: number) => void): void {
  const joinsOn = (k: number): boolean => isJoint(line.charCodeAt(k)) && isJoinedPart(line.charCodeAt(k + 1));
  for (let i = 0; i < line.length; ) {
    if (!isJoinedPart(line.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = runEnd(line, i, isJoinedPart);
    if (!joinsOn(end)) {
      i = end;
      continue;
    }
    while (joinsOn(end)) end = runEnd(line, end + 1, isJoinedPart);
    found(i, end);
    i = end;
  }
}

/**
 * PATH_TOKEN's matches, in order, found in one pass over each run of `[\w./-]` of `text` (a match lies
 * inside one run: its every character is one, and its closing `\b` sees the character after the run as
 * the end of the text). The regular expression itself backtracks: at every start in a long
 * run with no `/`, `[\w.-]*` reads to the run's end before the `/` fails, so a 50 KB SVG path an agent
 * wrote took it 5 s, quadratic in the run's length.
 */
export function pathTokens(text: string, found: (from: number, to: number) => void): void {
  const length = text.length;
  for (let i = 0; i < length; ) {
    if (!isPathChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < length && isPathChar(text.charCodeAt(i))) i++;
    pathTokensIn(text, start, i, found);
  }
}

/**
 * PATH_TOKEN's matches inside the run `text[start, end)`. Its first branch, `[\w.-]*\/[\w./-]*\w`,
 * matches at a start exactly when a `/` follows and a word character follows that `/`; it then takes
 * the run up to its last word character. Whether it matches can only go from yes to no as the start
 * moves right, so it is tried once, at the run's start: either it takes the rest of the run, or only the
 * second branch, `[\w-]+\.[A-Za-z]\w{0,7}\b`, matches anywhere in the run. That branch's `[\w-]+`
 * ends where the stretch of `[\w-]` from its start ends, which must be a `.` followed by a letter and at
 * most seven more word characters (the `\b` refuses a longer word). Every start inside one stretch shares
 * that end, so a stretch is judged once.
 */
export function pathTokensIn(
  text: string,
  start: number,
  end: number,
  found: (from: number, to: number) => void,
): void {
  let slash = -1;
  let lastWord = -1;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x2f) {
      if (slash < 0) slash = k;
    } else if (isWordCode(c)) lastWord = k;
  }
  if (slash >= 0 && lastWord > slash) {
    found(start, lastWord + 1);
    return;
  }
  let i = start;
  while (i < end) {
    if (!isPart(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let dot = i;
    while (dot < end && isPart(text.charCodeAt(dot))) dot++;
    if (dot + 1 < end && text.charCodeAt(dot) === 0x2e && isLetter(text.charCodeAt(dot + 1))) {
      let wordEnd = dot + 1;
      while (wordEnd < end && isWordCode(text.charCodeAt(wordEnd))) wordEnd++;
      if (wordEnd - (dot + 1) <= 8) {
        found(i, wordEnd);
        i = wordEnd;
        continue;
      }
    }
    i = dot;
  }
}

/** `line` with each match a scanner finds replaced by `by(match)`, as String.replace does. */
export function replaceNames(
  line: string,
  scan: (line: string, found: (start: number, end: number) => void) => void,
  by: (name: string) => string,
): string {
  let out = '';
  let last = 0;
  scan(line, (start, end) => {
    out += line.slice(last, start) + by(line.slice(start, end));
    last = end;
  });
  return last === 0 ? line : out + line.slice(last);
}
