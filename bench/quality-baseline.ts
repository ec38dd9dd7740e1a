import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The previous figures of `pnpm bench:quality`, kept in `bench/quality-baseline.json` so every run prints
 * each figure beside the one it replaces: a change to the guard moves savings and visibility in both
 * directions, and a table of new figures alone hides which way each set went.
 */

/** One set's figures, percentages to one decimal (null where the set has nothing to measure). */
export interface SetFigures {
  readonly files: number;
  readonly visible: number | null;
  readonly saved: number | null;
  readonly savedOver200: number | null;
  readonly lossless: number | null;
  /** The log over 200 lines that saves least, with its figure. */
  readonly worst: string;
}

export interface Baseline {
  /** When the figures were taken (ISO date), printed as "before, from …". */
  readonly written: string;
  readonly sets: Record<string, SetFigures>;
}

const FIGURES = ['visible', 'saved', 'savedOver200', 'lossless'] as const;

/** The baseline in `value`, or an error naming the first field that is not what it should be. */
function parseBaseline(value: unknown, path: string): Baseline {
  const fail = (field: string, want: string): never => {
    throw new Error(`${path}: ${field}: expected ${want}`);
  };
  if (typeof value !== 'object' || value === null) return fail('(root)', 'an object');
  const { written, sets } = value as Record<string, unknown>;
  if (typeof written !== 'string') fail('written', 'a date string');
  if (typeof sets !== 'object' || sets === null) return fail('sets', 'an object');
  for (const [name, raw] of Object.entries(sets)) {
    const f = raw as Record<string, unknown>;
    if (typeof f !== 'object' || f === null) fail(`sets.${name}`, 'an object');
    if (!Number.isInteger(f['files'])) fail(`sets.${name}.files`, 'an integer');
    for (const key of FIGURES)
      if (f[key] !== null && typeof f[key] !== 'number') fail(`sets.${name}.${key}`, 'a number or null');
    if (typeof f['worst'] !== 'string') fail(`sets.${name}.worst`, 'a string');
  }
  return value as Baseline;
}

/** The stored figures, or undefined when there are none yet; a malformed file names its bad field. */
export function readBaseline(path: string): Baseline | undefined {
  if (!existsSync(path)) return undefined;
  return parseBaseline(JSON.parse(readFileSync(path, 'utf8')), path);
}

/** Stores `sets` as the figures the next runs are compared with. */
export function writeBaseline(path: string, sets: Record<string, SetFigures>): void {
  const baseline: Baseline = { written: new Date().toISOString().slice(0, 10), sets };
  writeFileSync(path, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** A figure beside its previous value: `70.4% (68.2%)`, or the figure alone when there is none to compare. */
export function beside(now: number | null, was: number | null | undefined): string {
  const show = (v: number | null): string => (v === null ? '—' : `${v.toFixed(1)}%`);
  return was === undefined ? show(now) : `${show(now)} (${show(was)})`;
}
