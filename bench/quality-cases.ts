/**
 * The labelled cases of the quality benchmarks, and what "visible" means for them: the real CI logs of
 * the corpus (cidiff breakages, LogChunks, BugSwarm, errorformat) with their labelled failure lines, and
 * the bundled dataset's tool outputs with the lines that decide the next action. A line counts as
 * visible when it appears verbatim (whitespace-normalised), or with only times, UUIDs and long ids lifted
 * out — the measure of `../shared/eval/quality.py`, so both benches and the acceptance script agree.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One file and the lines of it that must stay visible. */
export interface Case {
  readonly set: string;
  readonly path: string;
  readonly wanted: string[];
  /** What the agent was doing when the tool ran (bundled set only). */
  readonly task?: string;
}

export const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);
export const norm = (s: string): string => s.split(/\s+/).filter(Boolean).join(' ');
const VOLATILE =
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b|\b[0-9a-fA-F]{16,}\b|\b\d{5,}\b/g;
export const masked = (s: string): string => s.replace(VOLATILE, '#');
export const readText = (path: string): string => new TextDecoder().decode(readFileSync(path));

/** How many of `wanted` are visible in `out` (see the module comment). */
export function visibleCount(
  out: string,
  wanted: readonly string[],
): { seen: number; total: number; missing: string[] } {
  const text = norm(out);
  const textMasked = masked(text);
  const lines = wanted.map(norm).filter(Boolean);
  const missing = lines.filter((w) => !text.includes(w) && !textMasked.includes(masked(w)));
  return { seen: lines.length - missing.length, total: lines.length, missing };
}

function cidiffCases(tools: string): Case[] {
  const base = join(tools, 'cidiff_breakages');
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const path = join(base, d.name, 'fail.log');
      const lines = splitLines(readText(path));
      const wanted: string[] = [];
      for (const row of readText(join(base, d.name, 'groundtruth')).split('\n')) {
        const m = /^\s*\w+\s+(\d+)-(\d+)/.exec(row);
        if (m) wanted.push(...lines.slice(Number(m[1]) - 1, Number(m[2])));
      }
      return { set: 'cidiff', path, wanted };
    });
}

function labelledCases(tools: string, set: string): Case[] {
  const base = join(tools, set);
  if (!existsSync(base)) return [];
  const entries = JSON.parse(readText(join(base, 'labels.json'))) as Record<string, unknown>[];
  const cases: Case[] = [];
  for (const e of entries) {
    const path = join(base, String(e['log_file']));
    if (set === 'logchunks') {
      cases.push({ set, path, wanted: splitLines(String(e['failure_reason_chunk'])) });
      continue;
    }
    // bugswarm: each failing test's most specific identifier that occurs in the log must stay visible
    const expected = e['expected'] as Record<string, unknown>;
    if (!expected['bool_t_failed'] || !expected['tr_t_failed']) continue;
    const raw = readText(path);
    const wanted: string[] = [];
    for (const item of String(expected['tr_t_failed']).split('#')) {
      const words = (item.match(/[A-Za-z_][\w-]{3,}/g) ?? []).sort((a, b) => b.length - a.length);
      const word = words.find((w) => raw.includes(w));
      if (word) wanted.push(word);
    }
    if (wanted.length > 0) cases.push({ set, path, wanted });
  }
  return cases;
}

function errorformatCases(tools: string): Case[] {
  const base = join(tools, 'errorformat');
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .filter((f) => f.endsWith('.ok') && existsSync(join(base, f.replace(/\.ok$/, '.in'))))
    .map((f) => ({
      set: 'errorformat',
      path: join(base, f.replace(/\.ok$/, '.in')),
      // each diagnostic's message (after the `file|line col|` prefix) must survive
      wanted: readText(join(base, f))
        .split('\n')
        .map((l) => l.replace(/^[^|]*\|[^|]*\|\s?/, ''))
        .filter((l) => l.trim().length > 0),
    }));
}

/**
 * Families of the bundled dataset whose labels depend on the task (datasets/README.md): which call sites a
 * grep must show, which commit, which records, which function holds the planted bug. The other families
 * label what the tool reports — the failure, the conflict, the unhealthy pod — whatever the task.
 */
const TASK_FAMILIES = new Set(['source-ts', 'source-py', 'grep', 'git-log', 'json-api']);

/**
 * The bundled dataset: every file's labelled keep lines (labels.jsonl, 1-based, split on '\n'), as set
 * `bundled` (labels of what the tool reports) or `bundled-task` (labels that depend on the task).
 */
function bundledCases(): Case[] {
  const base = join(import.meta.dirname, '../datasets/generated');
  if (!existsSync(join(base, 'labels.jsonl'))) return [];
  return readText(join(base, 'labels.jsonl'))
    .split('\n')
    .filter(Boolean)
    .map((row) => JSON.parse(row) as { file: string; family: string; keep: number[]; task: string })
    .map(({ file, family, keep, task }) => {
      const lines = readText(join(base, file)).split('\n');
      const set = TASK_FAMILIES.has(family) ? 'bundled-task' : 'bundled';
      return { set, path: join(base, file), wanted: keep.map((n) => lines[n - 1] ?? ''), task };
    });
}

/** Whether a set is the bundled dataset's rather than the corpus's. */
export const isBundled = (set: string): boolean => set.startsWith('bundled');

/** The file's path from its set's folder on, for reports. */
export const shownPath = (path: string): string => path.slice(path.lastIndexOf('tool_outputs/') + 13);

/** Every case: the bundled set first, then the corpus's sets (`corpus` is its root folder). */
export function qualityCases(corpus: string): Case[] {
  const tools = join(corpus, 'tool_outputs');
  return [
    ...bundledCases(),
    ...cidiffCases(tools),
    ...labelledCases(tools, 'logchunks'),
    ...labelledCases(tools, 'bugswarm_gha_logs'),
    ...errorformatCases(tools),
  ];
}
