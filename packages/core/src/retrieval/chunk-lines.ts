/** One window of lines of a folded original. Line numbers are 1-based and inclusive. */
export interface TextChunk {
  readonly text: string;
  readonly lineStart: number;
  readonly lineEnd: number;
}

/** How an original is cut into chunks for retrieval. */
export interface ChunkOptions {
  /** Lines per chunk (default 20): about a screenful, enough context around a hit to act on. */
  readonly linesPerChunk?: number;
  /** Lines shared by consecutive full chunks (default 4), so a passage on a boundary is whole in one. */
  readonly overlapLines?: number;
  /** Characters per chunk at most (default 8192); a longer single line is cut into pieces of this size. */
  readonly maxChunkChars?: number;
}

export const CHUNK_DEFAULTS: Required<ChunkOptions> = Object.freeze({
  linesPerChunk: 20,
  overlapLines: 4,
  maxChunkChars: 8192,
});

/**
 * Cuts `text` into overlapping windows of lines. A window closes at `linesPerChunk` lines or before it
 * would pass `maxChunkChars`; only full windows overlap the next one (a window cut short by a long line
 * would otherwise be repeated almost whole). A single line longer than `maxChunkChars` becomes several
 * chunks that all carry its line number, so even a 100 MB one-line log stays searchable in bounded pieces.
 */
export function chunkLines(text: string, options: ChunkOptions = {}): TextChunk[] {
  const { linesPerChunk, overlapLines, maxChunkChars } = { ...CHUNK_DEFAULTS, ...options };
  if (!(linesPerChunk >= 1 && overlapLines >= 0 && overlapLines < linesPerChunk && maxChunkChars >= 1)) {
    throw new RangeError(
      'chunking needs linesPerChunk ≥ 1, 0 ≤ overlapLines < linesPerChunk, maxChunkChars ≥ 1',
    );
  }
  if (text.length === 0) return [];
  const lines = text.split('\n');
  // A final newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();

  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < lines.length) {
    const first = lines[start] as string;
    if (first.length > maxChunkChars) {
      for (let at = 0; at < first.length; at += maxChunkChars) {
        chunks.push({ text: first.slice(at, at + maxChunkChars), lineStart: start + 1, lineEnd: start + 1 });
      }
      start += 1;
      continue;
    }
    let end = start;
    let chars = first.length;
    while (end + 1 < lines.length && end + 1 - start < linesPerChunk) {
      const next = (lines[end + 1] as string).length;
      if (chars + 1 + next > maxChunkChars) break;
      end += 1;
      chars += 1 + next;
    }
    chunks.push({ text: lines.slice(start, end + 1).join('\n'), lineStart: start + 1, lineEnd: end + 1 });
    if (end === lines.length - 1) break;
    const full = end - start + 1 === linesPerChunk;
    start = full ? end + 1 - overlapLines : end + 1;
  }
  return chunks;
}
