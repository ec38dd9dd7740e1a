import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The real third-party corpus benchmarks measure on: `$DISTIL_CORPUS`, else `../shared/corpus` beside
 * the repository. It is not part of the project; benchmarks say so and stop when it is absent.
 */
export function corpusPath(): string | null {
  const path = resolve(process.env['DISTIL_CORPUS'] ?? resolve(import.meta.dirname, '../../shared/corpus'));
  return existsSync(path) ? path : null;
}

/** Prints why a corpus benchmark cannot run and exits 0 (absence is not a failure of the code). */
export function requireCorpus(): string {
  const path = corpusPath();
  if (path) return path;
  process.stdout.write('corpus not found: set DISTIL_CORPUS to a folder laid out like ../shared/corpus\n');
  process.exit(0);
}
