import { outlinePython } from './outline-python.js';
import { outlineTypeScript } from './outline-typescript.js';
import type { SourceLanguage, SourceOutline } from './source-outline.js';

/**
 * Parses a source text into its outline, or null when it does not parse. Fingerprinting every definition
 * costs a walk of the whole tree, so a caller that only needs the folds (a skeleton) says so.
 */
export type Outliner = (text: string, withDefinitions: boolean) => Promise<SourceOutline | null>;

/** The parser behind each source language. */
export const OUTLINERS: Readonly<Record<SourceLanguage, Outliner>> = Object.freeze({
  python: outlinePython,
  typescript: outlineTypeScript,
});

/**
 * The outline of `text` in `language` (its definitions left empty unless `withDefinitions`), or null when
 * it does not parse. A parser that throws (a grammar
 * that fails to load) counts as "does not parse": the callers fall back to text, never fail a request.
 */
export function outlineSource(
  language: SourceLanguage,
  text: string,
  withDefinitions = true,
): Promise<SourceOutline | null> {
  const key = `${language}\u0000${withDefinitions ? 'all' : 'folds'}\u0000${text}`;
  const cached = recent.get(key);
  if (cached) return cached;
  const outline = OUTLINERS[language](text, withDefinitions).catch(() => null);
  recent.set(key, outline);
  // A re-read is compared with the version just before it: a few recent parses are all that repeat.
  if (recent.size > RECENT_OUTLINES) recent.delete(recent.keys().next().value as string);
  return outline;
}

const RECENT_OUTLINES = 16;
const recent = new Map<string, Promise<SourceOutline | null>>();
