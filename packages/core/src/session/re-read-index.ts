/** A near-duplicate found for a new text: the earlier entry and how many distinct lines they share. */
export interface ReReadMatch {
  readonly entry: number;
  readonly shared: number;
  /** `shared` over the larger of the two texts' distinct line counts: 1 for the same set of lines. */
  readonly share: number;
}

/** Lines shorter than this (blank, braces, `end`) say nothing about which text a line came from. */
const MIN_LINE_CHARS = 4;
/** A line seen in more entries than this (a shell prompt, a license header) stops being evidence. */
const MAX_POSTINGS = 64;

/**
 * Finds the earlier text a new one most resembles, by shared distinct lines: an inverted index from line
 * to the entries that contain it. Linear in the new text's lines; a re-read that changed one hunk shares
 * almost all of its lines with its earlier version, an unrelated text shares almost none.
 */
export class ReReadIndex {
  private readonly postings = new Map<number, number[]>();
  private readonly distinctCounts: number[] = [];

  /** Indexes `lines` as entry number `entry` (entries are added in increasing order). */
  add(entry: number, lines: readonly string[]): void {
    const distinct = distinctLines(lines);
    this.distinctCounts[entry] = distinct.size;
    for (const line of distinct) {
      const list = this.postings.get(line);
      if (!list) this.postings.set(line, [entry]);
      else if (list.length < MAX_POSTINGS) list.push(entry);
    }
  }

  /**
   * The entry sharing the most distinct lines with `lines`, when both sides share at least `minShare` of
   * their distinct lines (ties go to the most recent entry); null otherwise.
   */
  best(lines: readonly string[], minShare: number): ReReadMatch | null {
    const distinct = distinctLines(lines);
    if (distinct.size === 0) return null;
    const counts = new Map<number, number>();
    for (const line of distinct) {
      const list = this.postings.get(line);
      if (!list || list.length >= MAX_POSTINGS) continue;
      for (const entry of list) counts.set(entry, (counts.get(entry) ?? 0) + 1);
    }
    let best: ReReadMatch | null = null;
    for (const [entry, shared] of counts) {
      const theirs = this.distinctCounts[entry] ?? 0;
      if (shared < minShare * distinct.size || shared < minShare * theirs) continue;
      if (!best || shared > best.shared || (shared === best.shared && entry > best.entry)) {
        best = { entry, shared, share: shared / Math.max(distinct.size, theirs) };
      }
    }
    return best;
  }
}

/**
 * Lines compared without whitespace, quotes, `;` or `,`: a re-read after a formatter ran (re-indented,
 * re-spaced, quotes swapped, trailing commas added) still shares most of its lines with the earlier
 * version, so the structural comparison gets to see it. Each line is kept as a 32-bit FNV-1a hash, not
 * a string: the index lives as long as a session, and a rare hash collision only nudges a similarity
 * estimate (the delta that is sent is always computed from the real texts).
 */
function distinctLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const line of lines) {
    const key = line.replace(/[\s"';,]+/g, '');
    if (key.length >= MIN_LINE_CHARS) out.add(fnv1a(key));
  }
  return out;
}

/** 32-bit FNV-1a over UTF-16 code units (Fowler, Noll, Vo). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
