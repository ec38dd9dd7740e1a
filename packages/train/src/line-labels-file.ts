import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseOrThrow } from '@distil/contract';
import { z } from 'zod';

/** The file name of a corpus's recorded keep lines (the bundled dataset ships one at its root). */
export const LINE_LABELS_FILE = 'labels.jsonl';

/**
 * One record of `labels.jsonl`: a corpus file and the 1-based numbers of the lines that decide the next
 * action of the task it belongs to. Extra fields (`family`, `task`, `why`) are allowed and ignored.
 */
const LineLabelsRecord = z
  .object({
    file: z.string().min(1, 'names the labelled file, relative to the labels file'),
    lines: z.number().int().nonnegative().optional(),
    keep: z.array(z.number().int().positive('line numbers start at 1')),
  })
  .loose();

/** Keep-line numbers by corpus-relative path. */
export type RecordedKeepLines = Map<
  string,
  { readonly keep: ReadonlySet<number>; readonly lines?: number; readonly at: string }
>;

/** Whether a JSON Lines text looks like a labels file (its first record has `file` and `keep`). */
export function looksLikeLineLabels(text: string): boolean {
  const first = text.split('\n', 1)[0]?.trim() ?? '';
  if (!first.startsWith('{')) return false;
  try {
    const record = JSON.parse(first) as Record<string, unknown>;
    return typeof record['file'] === 'string' && Array.isArray(record['keep']);
  } catch {
    return false;
  }
}

/**
 * Reads a labels file; paths in it are relative to its own folder and are returned relative to the corpus
 * root. A bad record is an error naming the file, the line and the field.
 */
export function readLineLabels(
  path: string,
  root: string,
  text = readFileSync(path, 'utf8'),
): RecordedKeepLines {
  const out: RecordedKeepLines = new Map();
  const base = dirname(path);
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${path} line ${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new Error(`${where}: not valid JSON (${(error as Error).message})`);
    }
    const record = parseOrThrow(LineLabelsRecord, raw, where);
    const file = relative(root, join(base, record.file));
    out.set(file, {
      keep: new Set(record.keep),
      ...(record.lines === undefined ? {} : { lines: record.lines }),
      at: where,
    });
  });
  return out;
}
