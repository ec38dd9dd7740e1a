/**
 * Cross-reference anchors (spec: salience protection, "cross-reference detection"): tokens that the
 * trusted side of the conversation names — what the user asked, the agent's own calls and text — are
 * what the agent navigates by, so a tool-output line that mentions one is load-bearing.
 *
 * Anchors come only from trusted text. A token shared between two untrusted blocks would let one
 * untrusted block change how another compresses, which is the shared budget spec/threat-model.txt
 * rules out; restricting the source keeps per-block independence for everything an attacker writes.
 *
 * An anchor only counts where it singles lines out (see anchoredTexts): a word the trusted side uses
 * everywhere (`directory`, `command`, `build`) names half the lines of a build log and points at none.
 */

import { scratchCodeUnits } from '../pipeline/code-units.js';
import { isPathChar, isWordCode as isWord, pathTokens, pathTokensIn } from './names.js';

// Words (identifiers split at '-', '.' and '/') and numbers of three or more digits; paths whole.
const ANCHOR_TOKEN = /[A-Za-z_]\w*|\d{3,}/g;
// PATH_TOKEN, the paths: the matches of /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g, found by pathTokens (names.ts).
const MIN_ANCHOR_LENGTH = 4;
// Words too common to anchor anything.
const COMMON = new Set(
  'this that with from have what when where which will would should could there their about please file files line lines test tests error errors the and for you your into then than them they run running make sure check look help need want code using used also just like only some more most does done'.split(
    ' ',
  ),
);

/**
 * How many lines of one block the anchors may single out when the caller does not say: the digest's
 * default head plus tail (8 + 12), the lines a fold shows whatever the block holds.
 */
export const DEFAULT_ANCHORED_LINES = 20;

/** Collects anchor tokens from trusted texts (user requests, the agent's tool calls and its own text). */
export function collectAnchors(trustedTexts: Iterable<string>): Set<string> {
  const anchors = new Set<string>();
  const take = (token: string): void => {
    if (token.length >= MIN_ANCHOR_LENGTH && !COMMON.has(token.toLowerCase())) anchors.add(token);
  };
  for (const text of trustedTexts) {
    for (const match of text.matchAll(ANCHOR_TOKEN)) take(match[0]);
    pathTokens(text, (from, to) => take(text.slice(from, to)));
  }
  return anchors;
}

/** Whether a line mentions any anchor token. */
export function mentionsAnchor(line: string, anchors: ReadonlySet<string>): boolean {
  return anchorsIn(line, anchors).size > 0;
}

/**
 * The anchor tokens a line mentions, each once: the tokens ANCHOR_TOKEN and then PATH_TOKEN would find,
 * in that order, that are anchors. Runs once per distinct line of every block that has anchors, so it
 * scans by character codes instead of running the two patterns over the line: with their match objects
 * they were close to half of the digest's time on a 200 KB build log.
 */
export function anchorsIn(line: string, anchors: ReadonlySet<string>): Set<string> {
  return anchorsInLine(line, anchors, anchorKinds(anchors));
}

function anchorsInLine(line: string, anchors: ReadonlySet<string>, kinds: AnchorKinds): Set<string> {
  const found = new Set<string>();
  const add = (token: string): void => {
    found.add(token);
  };
  if (kinds.shortestWord > 0)
    wordAnchorsIn({ units: scratchCodeUnits(line), text: line }, 0, line.length, anchors, kinds, add);
  if (kinds.shortestPath > 0 && mayHoldPath(line, kinds))
    pathAnchorsIn(line, anchors, kinds.shortestPath, add);
  return found;
}

/** Where the word scan reads: `text`'s code units, copied into `units` at the same offsets. */
interface ScannedText {
  readonly units: Uint16Array;
  readonly text: string;
}

/**
 * What a line's tokens are checked against before any is cut out and looked up. A build log's lines hold
 * thousands of words and paths and almost none is an anchor; cutting, hashing and (for paths) matching
 * each took ~3 ms of a new 200 KB result's digest, and these checks made it about a third.
 */
interface AnchorKinds {
  /** The shortest word anchor and the shortest path anchor (one with `.` or `/`), 0 when there is none. */
  readonly shortestWord: number;
  readonly shortestPath: number;
  /** The path anchors when they are few, null otherwise (see {@link mayHoldPath}). */
  readonly paths: readonly string[] | null;
  /**
   * At `(first & 127) << 7 | (last & 127)`, a word anchor's first and last units, bit `min(length, 31)`
   * set: a word token is looked up only when an anchor of its length starts and ends as it does.
   */
  readonly wordEnds: Uint32Array;
}

/** Up to this many path anchors, a line is searched for each before its paths are tokenised. */
const MAX_SEARCHED_PATHS = 32;

/** Code units the word scan of {@link anchoredTexts} copies at a time (128 KB). */
const SCAN_BATCH = 1 << 16;

function anchorKinds(anchors: ReadonlySet<string>): AnchorKinds {
  let shortestWord = 0;
  let shortestPath = 0;
  const paths: string[] = [];
  const wordEnds = new Uint32Array(128 * 128);
  for (const anchor of anchors) {
    const n = anchor.length;
    if (n === 0) continue;
    if (anchor.includes('.') || anchor.includes('/')) {
      if (shortestPath === 0 || n < shortestPath) shortestPath = n;
      paths.push(anchor);
    } else {
      if (shortestWord === 0 || n < shortestWord) shortestWord = n;
      wordEnds[((anchor.charCodeAt(0) & 127) << 7) | (anchor.charCodeAt(n - 1) & 127)]! |=
        1 << Math.min(n, 31);
    }
  }
  return { shortestWord, shortestPath, paths: paths.length <= MAX_SEARCHED_PATHS ? paths : null, wordEnds };
}

/**
 * Whether a path anchor can be among the line's path tokens: only if it occurs in the line at all. A
 * build log is full of paths, and tokenising each with PATH_TOKEN was over half the anchors' time;
 * a few native substring searches rule out almost every line first.
 */
function mayHoldPath(line: string, kinds: AnchorKinds): boolean {
  if (kinds.paths === null) return true;
  for (const path of kinds.paths) if (line.includes(path)) return true;
  return false;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * ANCHOR_TOKEN's matches, `[A-Za-z_]\w*|\d{3,}`, run by run of `\w`: a run that starts with a letter or
 * `_` is one token; one that starts with digits gives them as a token when there are three or more, and
 * the rest of the run from its first letter or `_` as another.
 */
function wordAnchorsIn(
  { units, text }: ScannedText,
  from: number,
  to: number,
  anchors: ReadonlySet<string>,
  kinds: AnchorKinds,
  add: (token: string) => void,
): void {
  const shortest = kinds.shortestWord;
  let i = from;
  while (i < to) {
    if (!isWord(units[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < to && isDigit(units[i]!)) i++;
    const digitsEnd = i;
    while (i < to && isWord(units[i]!)) i++;
    const digits = digitsEnd - start;
    if (digits >= 3 && digits >= shortest) take(units, text, start, digitsEnd, anchors, kinds, add);
    if (i > digitsEnd && i - digitsEnd >= shortest) take(units, text, digitsEnd, i, anchors, kinds, add);
  }
}

function take(
  units: Uint16Array,
  text: string,
  start: number,
  end: number,
  anchors: ReadonlySet<string>,
  kinds: AnchorKinds,
  add: (token: string) => void,
): void {
  const key = ((units[start]! & 127) << 7) | (units[end - 1]! & 127);
  if ((kinds.wordEnds[key]! & (1 << Math.min(end - start, 31))) === 0) return;
  const token = text.slice(start, end);
  if (anchors.has(token)) add(token);
}

/**
 * PATH_TOKEN's matches. Each lies inside one run of `[\w./-]` (the pattern's every character is one, and
 * its closing `\b` sees the character after the run as the end of the text), and needs a `.` or `/`:
 * the pattern runs over just those runs, not the whole line.
 */
function pathAnchorsIn(
  line: string,
  anchors: ReadonlySet<string>,
  shortest: number,
  add: (token: string) => void,
): void {
  const length = line.length;
  let i = 0;
  while (i < length) {
    let c = line.charCodeAt(i);
    if (!isPathChar(c)) {
      i++;
      continue;
    }
    const start = i;
    let marked = false;
    while (i < length && isPathChar(c)) {
      if (c === 0x2e || c === 0x2f) marked = true;
      c = line.charCodeAt(++i);
    }
    if (!marked || i - start < shortest) continue;
    pathTokensIn(line, start, i, (from, to) => {
      const token = line.slice(from, to);
      if (anchors.has(token)) add(token);
    });
  }
}

/**
 * Which distinct texts of a block are anchored (1 = yes), decided from the block's own lines: `texts`
 * are its distinct lines in order of first appearance and `repeats[u]` how many lines repeat text u.
 *
 * An anchor's document frequency (the lines that mention it, repeats included) says whether it points
 * at anything. The rule, with `maxLines` the lines a digest shows anyway (head plus tail):
 * - a token on more than `maxLines` lines anchors nothing here: guarding all of them would keep more
 *   lines for that one word than the fold keeps as context, and the agent cannot find a line by a word
 *   the block repeats everywhere (the same reason BM25 gives such a term no weight);
 * - the rarest tokens go first — the fewer lines a token names, the more specifically it names them —
 *   and a token is taken only while the lines anchored so far stay within `maxLines`. Many generic
 *   anchors (every word of a long trusted text) then anchor the few lines they single out, never the
 *   block: cross-references add at most as many lines as the head and tail already show.
 * Ties go to the token that appears first. Depends on the block and the anchors alone.
 */
export function anchoredTexts(
  texts: readonly string[],
  repeats: Int32Array,
  anchors: ReadonlySet<string>,
  maxLines: number = DEFAULT_ANCHORED_LINES,
): Uint8Array {
  const anchored = new Uint8Array(texts.length);
  if (anchors.size === 0 || maxLines <= 0) return anchored;
  const postings = new Map<string, number[]>();
  const frequency = new Map<string, number>();
  const kinds = anchorKinds(anchors);
  // a text's anchors, each once, in the order anchorsIn gives them
  const found: string[] = [];
  const add = (token: string): void => {
    if (!found.includes(token)) found.push(token);
  };
  for (let u = 0; u < texts.length; ) {
    // The word scan reads every character: it runs over copies of the texts' code units, joined in
    // batches of about SCAN_BATCH units (a longer text alone), so that a huge block is not copied whole.
    let end = u + 1;
    for (let units = texts[u]!.length; end < texts.length && units + texts[end]!.length < SCAN_BATCH; end++)
      units += texts[end]!.length + 1;
    const joined = kinds.shortestWord > 0 ? texts.slice(u, end).join('\n') : '';
    const scanned: ScannedText = { units: scratchCodeUnits(joined), text: joined };
    for (let at = 0; u < end; at += texts[u]!.length + 1, u++) {
      const text = texts[u]!;
      found.length = 0;
      if (kinds.shortestWord > 0) wordAnchorsIn(scanned, at, at + text.length, anchors, kinds, add);
      if (kinds.shortestPath > 0 && mayHoldPath(text, kinds))
        pathAnchorsIn(text, anchors, kinds.shortestPath, add);
      for (const token of found) {
        const list = postings.get(token);
        if (list) list.push(u);
        else postings.set(token, [u]);
        frequency.set(token, (frequency.get(token) ?? 0) + repeats[u]!);
      }
    }
  }
  // Map order is first appearance, and the sort is stable: equal frequencies keep that order.
  const candidates = [...postings.keys()]
    .filter((token) => frequency.get(token)! <= maxLines)
    .sort((a, b) => frequency.get(a)! - frequency.get(b)!);
  let covered = 0;
  for (const token of candidates) {
    const texts = postings.get(token)!;
    let added = 0;
    for (const u of texts) if (anchored[u] === 0) added += repeats[u]!;
    if (covered + added > maxLines) continue;
    for (const u of texts) anchored[u] = 1;
    covered += added;
  }
  return anchored;
}
