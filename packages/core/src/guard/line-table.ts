import { lineKeywords } from './keywords.js';

/**
 * A block's lines with repeats collapsed, and the keyword families of each distinct text: `texts[ids[i]]`
 * is line i, and `texts` holds each text once (a long one possibly more often), in order of appearance.
 *
 * Every line signal but shape rarity is a function of the line's text alone, and a CI log repeats itself
 * (blank lines, progress, one warning per module): about two lines in three of the labelled CI logs repeat
 * an earlier one once terminal codes and timestamps are gone. Judging each text once costs one hash per
 * line instead of a dozen pattern scans.
 */
export interface LineTable {
  readonly ids: Int32Array;
  readonly texts: readonly string[];
  /** Per distinct text: its keyword families (see lineKeywords). */
  readonly keywords: Int32Array;
  /**
   * Per distinct text: whether it is a verdict, once a stage asked (0 not yet, 1 no, 2 yes). Filled by
   * isVerdictText (tier1/verdicts.ts): three stages of a digest ask, and the patterns run once per text.
   */
  readonly verdicts: Uint8Array;
}

/**
 * Lines longer than this are taken as distinct without being looked up: hashing costs as much per
 * character as a scan, and long lines (a dump, a minified bundle) rarely repeat. A repeat of one is only
 * judged twice, with the same result.
 */
const MAX_COLLAPSED = 400;

/** Builds the {@link LineTable} of a block's (analysed) lines. */
export function lineTable(lines: readonly string[]): LineTable {
  const index = new Map<string, number>();
  const texts: string[] = [];
  const ids = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let id = line.length > MAX_COLLAPSED ? undefined : index.get(line);
    if (id === undefined) {
      id = texts.length;
      texts.push(line);
      if (line.length <= MAX_COLLAPSED) index.set(line, id);
    }
    ids[i] = id;
  }
  const keywords = new Int32Array(texts.length);
  for (let u = 0; u < texts.length; u++) keywords[u] = lineKeywords(texts[u]!);
  return { ids, texts, keywords, verdicts: new Uint8Array(texts.length) };
}
