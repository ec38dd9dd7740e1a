/**
 * The shape of a line: its words with every variable-looking token (digits, paths, long tokens) masked,
 * so "Downloaded foo-1.2.jar (2 kB)" and "Downloaded bar-3.0.jar (9 kB)" share one shape. Used to tell a
 * line that is one of many alike from one that stands out. Scans characters once; no regex per token.
 */
export function lineShape(line: string): string {
  let shape = '';
  let start = -1;
  let variable = false;
  for (let i = 0; i <= line.length; i++) {
    const c = i < line.length ? line.charCodeAt(i) : 32;
    const space = c === 32 || c === 9;
    if (space) {
      if (start >= 0) {
        shape += variable || i - start > 24 ? '* ' : `${line.slice(start, i)} `;
        start = -1;
      }
      continue;
    }
    if (start < 0) {
      start = i;
      variable = false;
    }
    // digits, path separators, '@', '=' values and '#' ids make a token variable
    if ((c >= 48 && c <= 57) || c === 47 || c === 92 || c === 64 || c === 61 || c === 35) variable = true;
  }
  return shape;
}

/** How many lines of the block share each line's shape. */
export function shapeCounts(lines: readonly string[]): { shapes: string[]; counts: Map<string, number> } {
  const shapes = lines.map(lineShape);
  const counts = new Map<string, number>();
  for (const s of shapes) counts.set(s, (counts.get(s) ?? 0) + 1);
  return { shapes, counts };
}

/**
 * A coarser shape: the first word (masked when variable) and the number of words, the first split Drain
 * makes (He et al., ICWS 2017). "Installing bcrypt 3.1.12" and "Installing ffi 1.10.0" share it; used to
 * decide whether an identifier-bearing line stands out from its neighbours. Returned as a number (a
 * 32-bit FNV-1a hash of the first word, times 1024, plus the word count) so counting allocates nothing;
 * a hash collision only merges two shapes, which can only make a line look less rare.
 */
export function coarseShape(line: string): number {
  let words = 0;
  let hash = 0x811c9dc5;
  let variable = false;
  let inWord = false;
  // the first 160 characters tell lines apart well enough; longer lines are all "long"
  const end = Math.min(line.length, 160);
  for (let i = 0; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      inWord = true;
      words++;
    }
    if (words === 1) {
      if ((c >= 48 && c <= 57) || c === 47 || c === 92 || c === 64 || c === 61 || c === 35) variable = true;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
  }
  if (line.length > end) words += 512;
  return ((variable ? 0 : hash >>> 0) % 0x200000) * 1024 + Math.min(words, 1023);
}

/** How many lines of the block share each line's coarse shape. */
export function coarseShapeCounts(lines: readonly string[]): {
  shapes: number[];
  counts: Map<number, number>;
} {
  const shapes = lines.map(coarseShape);
  const counts = new Map<number, number>();
  for (const s of shapes) counts.set(s, (counts.get(s) ?? 0) + 1);
  return { shapes, counts };
}
