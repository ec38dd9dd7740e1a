import { readFileSync } from 'node:fs';

/** The records of a JSON Lines file, and how many of its non-blank lines were not valid JSON. */
export interface JsonLines {
  readonly records: readonly unknown[];
  /** 1-based numbers of the lines skipped because they were not valid JSON (a log cut mid-write ends so). */
  readonly skipped: readonly number[];
}

/**
 * Reads JSON Lines leniently: a line that is not JSON is skipped and counted, never fatal, because an
 * agent's log is written while it runs and its last line can be cut short.
 */
export function parseJsonLines(text: string): JsonLines {
  const records: unknown[] = [];
  const skipped: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      skipped.push(i + 1);
    }
  }
  return { records, skipped };
}

/** parseJsonLines over a file. */
export function readJsonLines(path: string): JsonLines {
  return parseJsonLines(readFileSync(path, 'utf8'));
}
