import { outlineSource } from './outliners.js';
import type { Definition, SourceLanguage } from './source-outline.js';

/** What changed between two versions of a source file, top-level definition by definition. */
export type AstComparison =
  | { readonly type: 'unparsed' }
  | { readonly type: 'unchanged'; readonly definitions: number }
  | {
      readonly type: 'changed';
      readonly definitions: number;
      /** Definitions of the later version whose syntax tree is new (edited or added), in source order. */
      readonly changed: readonly Definition[];
      /** Labels of earlier definitions that are gone and were not edited in place. */
      readonly removed: readonly string[];
    };

/**
 * Compares two versions structurally (spec: AST-structural delta). Definitions match by fingerprint as a
 * multiset, so whitespace, comments and reordering change nothing; only definitions whose tree changed
 * count. `unparsed` when either version has syntax errors: callers fall back to the text diff.
 */
export async function compareSource(
  language: SourceLanguage,
  earlier: string,
  later: string,
): Promise<AstComparison> {
  const [before, after] = await Promise.all([
    outlineSource(language, earlier),
    outlineSource(language, later),
  ]);
  if (!before || !after) return { type: 'unparsed' };
  const remaining = new Map<string, number>();
  for (const d of before.definitions) remaining.set(d.fingerprint, (remaining.get(d.fingerprint) ?? 0) + 1);
  const changed: Definition[] = [];
  for (const d of after.definitions) {
    const left = remaining.get(d.fingerprint) ?? 0;
    if (left > 0) remaining.set(d.fingerprint, left - 1);
    else changed.push(d);
  }
  if (changed.length === 0 && [...remaining.values()].every((n) => n === 0)) {
    return { type: 'unchanged', definitions: after.definitions.length };
  }
  const changedKeys = new Set(changed.map((d) => d.key));
  const removed: string[] = [];
  for (const d of before.definitions) {
    const left = remaining.get(d.fingerprint) ?? 0;
    if (left === 0) continue;
    remaining.set(d.fingerprint, left - 1);
    if (!changedKeys.has(d.key)) removed.push(d.label);
  }
  return { type: 'changed', definitions: after.definitions.length, changed, removed };
}
