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

// Words (identifiers split at '-', '.' and '/') and numbers of three or more digits; paths whole.
const ANCHOR_TOKEN = /[A-Za-z_]\w*|\d{3,}/g;
const PATH_TOKEN = /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g;
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
  for (const text of trustedTexts) {
    for (const pattern of [ANCHOR_TOKEN, PATH_TOKEN]) {
      for (const match of text.matchAll(pattern)) {
        const token = match[0];
        if (token.length < MIN_ANCHOR_LENGTH || COMMON.has(token.toLowerCase())) continue;
        anchors.add(token);
      }
    }
  }
  return anchors;
}

/** Whether a line mentions any anchor token. */
export function mentionsAnchor(line: string, anchors: ReadonlySet<string>): boolean {
  if (anchors.size === 0) return false;
  for (const pattern of [ANCHOR_TOKEN, PATH_TOKEN]) {
    for (const match of line.matchAll(pattern)) if (anchors.has(match[0])) return true;
  }
  return false;
}

/** The anchor tokens a line mentions, each once. */
export function anchorsIn(line: string, anchors: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (anchors.size === 0) return found;
  for (const pattern of [ANCHOR_TOKEN, PATH_TOKEN]) {
    for (const match of line.matchAll(pattern)) if (anchors.has(match[0])) found.add(match[0]);
  }
  return found;
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
  for (let u = 0; u < texts.length; u++) {
    for (const token of anchorsIn(texts[u]!, anchors)) {
      const list = postings.get(token);
      if (list) list.push(u);
      else postings.set(token, [u]);
      frequency.set(token, (frequency.get(token) ?? 0) + repeats[u]!);
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
