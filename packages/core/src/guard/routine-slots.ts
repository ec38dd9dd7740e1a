import { hasStrongSignal, isSurprising, weakWord } from './surprise.js';

/**
 * Surprise relative to the block (issue #16): a weak trouble word ("missing", "invalid") that sits in
 * the variable slot of a line frame that is routine in this block is not a finding. A test runner prints
 * `✔ reads a missing file (2.8ms)` among hundreds of `✔ <name> (<n>ms)` lines: the test's name is the
 * slot, and what the line says — one more passing test — is what its many siblings say. The failing
 * test (`✖ …`) has another constant part, and a strong word (an error, a failure, a timeout) stays a
 * finding wherever it stands.
 *
 * The frame of a line is its first fixed whitespace-separated token and its last token, masked when it
 * looks variable (digits, paths, ids): the first split a log-template miner makes is on the leading token
 * (Drain, He et al., ICWS 2017), and a runner's lines usually close with a fixed shape too (a timing,
 * a status). Lines of one frame share a constant part: the leading and trailing tokens every member
 * has in common; what lies between is the slot.
 */

/** A frame has to hold at least this many lines of the block to count as routine. */
const ROUTINE_LINES = 10;
/** Lines of fewer tokens have no slot between a leading and a trailing constant. */
const MIN_TOKENS = 3;
/** A weak word on at most this many lines of a frame stands out (as a shape does in guard-lines.ts). */
const RARE_WORD = 2;

interface Frame {
  /** Lines of the block in this frame (repeats counted). */
  lines: number;
  /** Of them, lines that surprise. */
  surprising: number;
  /** The masked tokens every member starts with, and ends with. */
  prefix: string[];
  suffix: string[];
}

/**
 * Clears `surprise` in `judged` for the texts whose only surprise is a weak word in the slot of a
 * routine frame: at least {@link ROUTINE_LINES} lines of the block, fewer than half of them surprising,
 * with a constant part that holds a fixed token and says nothing surprising itself — and a word that
 * more than {@link RARE_WORD} lines of the frame share. A word one line of a frame holds is news (`cache
 * entry missing` among `cache entry 7 restored`); a word a dozen test names hold is vocabulary.
 * `repeats[u]` lines of the block repeat text u. A function of the block alone, so per-block
 * independence holds.
 */
export function clearRoutineSlotSurprise(
  texts: readonly string[],
  repeats: Int32Array,
  keywords: Int32Array,
  judged: Uint8Array,
  surprise: number,
): void {
  const candidates: number[] = [];
  const words: (string | undefined)[] = [];
  for (let u = 0; u < texts.length; u++) {
    if ((judged[u]! & surprise) === 0 || hasStrongSignal(texts[u]!, keywords[u]!)) continue;
    candidates.push(u);
    words[u] = weakWord(texts[u]!, keywords[u]!);
  }
  if (candidates.length === 0) return;
  // Only the frames a candidate sits in are read: the other texts are keyed by one scan (frameOf) and
  // tokenised only when their frame is one of those.
  const tokensOf = new Map<number, string[]>();
  const relevant = new Set<string>();
  // lines of each frame holding each weak word
  const wordLines = new Map<string, number>();
  for (const u of candidates) {
    const tokens = maskedTokens(texts[u]!);
    tokensOf.set(u, tokens);
    if (tokens.length < MIN_TOKENS) continue;
    relevant.add(frameKey(tokens));
    if (words[u] === undefined) continue;
    const key = `${frameKey(tokens)}\u0000${words[u]}`;
    wordLines.set(key, (wordLines.get(key) ?? 0) + repeats[u]!);
  }
  // A text's frame can be a candidate's only if its last token is one of theirs: that test reads the
  // last token alone, and hashes it (a shared hash only costs the full key).
  const lastTokens = new Set<number>();
  for (const u of candidates)
    if (tokensOf.get(u)!.length >= MIN_TOKENS) lastTokens.add(lastTokenHash(texts[u]!));
  const frames = new Map<string, Frame>();
  for (let u = 0; u < texts.length; u++) {
    if (!lastTokens.has(lastTokenHash(texts[u]!))) continue;
    const key = frameOf(texts[u]!);
    if (key === undefined || !relevant.has(key)) continue;
    const tokens = tokensOf.get(u) ?? maskedTokens(texts[u]!);
    const frame = frames.get(key);
    const surprising = (judged[u]! & surprise) !== 0 ? repeats[u]! : 0;
    if (!frame) {
      frames.set(key, { lines: repeats[u]!, surprising, prefix: tokens.slice(), suffix: tokens.slice() });
      continue;
    }
    frame.lines += repeats[u]!;
    frame.surprising += surprising;
    frame.prefix.length = commonPrefix(frame.prefix, tokens);
    frame.suffix = frame.suffix.slice(frame.suffix.length - commonSuffix(frame.suffix, tokens));
  }
  for (const u of candidates) {
    const tokens = tokensOf.get(u)!;
    if (tokens.length < MIN_TOKENS) continue;
    const key = frameKey(tokens);
    const frame = frames.get(key)!;
    if (frame.lines < ROUTINE_LINES || frame.surprising * 2 >= frame.lines) continue;
    if (words[u] === undefined || wordLines.get(`${key}\u0000${words[u]}`)! <= RARE_WORD) continue;
    // every member shares the whole line: there is no slot for a word to sit in
    if (frame.prefix.length + frame.suffix.length >= tokens.length) continue;
    const constant = [...frame.prefix, ...frame.suffix];
    if (constant.every((t) => t === VARIABLE)) continue;
    if (isSurprising(constant.join(' '))) continue;
    judged[u] = judged[u]! & ~surprise;
  }
}

const VARIABLE = '*';

/**
 * A line's tokens with every variable-looking one masked: digits, path separators, `@`, `=` and `#`
 * make a token variable, as in lineShape.
 */
export function maskedTokens(line: string): string[] {
  const tokens = line.split(/[ \t]+/).filter((t) => t.length > 0);
  return tokens.map((t) => (/[\d/\\@=#]/.test(t) ? VARIABLE : t));
}

/** Whether a code unit makes a token variable (see maskedTokens): a digit, `/`, `\\`, `@`, `=` or `#`. */
const isVariableCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 47 || c === 92 || c === 64 || c === 61 || c === 35;

/**
 * frameKey(maskedTokens(line)) for a line of at least {@link MIN_TOKENS} tokens, else undefined, in one
 * scan of the line that builds no token array.
 */
export function frameOf(line: string): string | undefined {
  // The last token, read backwards from the line's end.
  let lastTo = line.length;
  while (lastTo > 0 && isSeparatorCode(line.charCodeAt(lastTo - 1))) lastTo--;
  if (lastTo === 0) return undefined;
  let lastFrom = lastTo;
  let lastVariable = false;
  while (lastFrom > 0 && !isSeparatorCode(line.charCodeAt(lastFrom - 1))) {
    if (isVariableCode(line.charCodeAt(--lastFrom))) lastVariable = true;
  }
  // Forwards only as far as the first fixed token and the third token: a line is seldom read whole.
  let tokens = 0;
  let leadFrom = -1;
  let leadTo = -1;
  let i = 0;
  while (i < lastTo && (tokens < MIN_TOKENS || leadFrom < 0)) {
    while (i < lastTo && isSeparatorCode(line.charCodeAt(i))) i++;
    if (i >= lastTo) break;
    const from = i;
    let variable = false;
    while (i < lastTo && !isSeparatorCode(line.charCodeAt(i))) {
      if (isVariableCode(line.charCodeAt(i))) variable = true;
      i++;
    }
    tokens++;
    // a token that reads `*` is taken for a masked one, as frameKey takes it
    if (!variable && leadFrom < 0 && (i - from !== 1 || line.charCodeAt(from) !== 42)) {
      leadFrom = from;
      leadTo = i;
    }
  }
  if (tokens < MIN_TOKENS) return undefined;
  const lead = leadFrom < 0 ? VARIABLE : line.slice(leadFrom, leadTo);
  return `${lead}\u0000${lastVariable ? VARIABLE : line.slice(lastFrom, lastTo)}`;
}

const isSeparatorCode = (c: number): boolean => c === 32 || c === 9;

/** A hash of a line's last token as frameOf keys it (one value for every variable token), -1 if none. */
function lastTokenHash(line: string): number {
  let k = line.length;
  while (k > 0 && isSeparatorCode(line.charCodeAt(k - 1))) k--;
  if (k === 0) return -1;
  let h = 0x811c9dc5;
  while (k > 0) {
    const c = line.charCodeAt(k - 1);
    if (isSeparatorCode(c)) break;
    if (isVariableCode(c)) return 0;
    h = Math.imul(h ^ c, 0x01000193);
    k--;
  }
  // `*` is the masked token's own text
  return h === Math.imul(0x811c9dc5 ^ 42, 0x01000193) ? 0 : h >>> 1 || 1;
}

/**
 * The frame of a line: its first fixed token (a timestamp or a thread id before it is skipped, being
 * masked) and its last token, masked or not.
 */
export function frameKey(tokens: readonly string[]): string {
  const lead = tokens.find((t) => t !== VARIABLE) ?? VARIABLE;
  return `${lead}\u0000${tokens[tokens.length - 1]}`;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

function commonSuffix(a: readonly string[], b: readonly string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[a.length - 1 - k] === b[b.length - 1 - k]) k++;
  return k;
}
