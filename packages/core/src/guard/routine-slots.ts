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
  const tokensOf = texts.map(maskedTokens);
  // lines of each frame holding each weak word
  const wordLines = new Map<string, number>();
  for (const u of candidates) {
    if (tokensOf[u]!.length < MIN_TOKENS || words[u] === undefined) continue;
    const key = `${frameKey(tokensOf[u]!)}\u0000${words[u]}`;
    wordLines.set(key, (wordLines.get(key) ?? 0) + repeats[u]!);
  }
  const frames = new Map<string, Frame>();
  for (let u = 0; u < texts.length; u++) {
    const tokens = tokensOf[u]!;
    if (tokens.length < MIN_TOKENS) continue;
    const key = frameKey(tokens);
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
    const tokens = tokensOf[u]!;
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
function maskedTokens(line: string): string[] {
  const tokens = line.split(/[ \t]+/).filter((t) => t.length > 0);
  return tokens.map((t) => (/[\d/\\@=#]/.test(t) ? VARIABLE : t));
}

/**
 * The frame of a line: its first fixed token (a timestamp or a thread id before it is skipped, being
 * masked) and its last token, masked or not.
 */
function frameKey(tokens: readonly string[]): string {
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
