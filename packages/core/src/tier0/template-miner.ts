import { groupSkeletons } from './template-grouping.js';
import { printableTemplate, skeletonOf } from './template-mask.js';

/** Result of {@link mineTemplates}. */
export interface MinedTemplates {
  /** Cluster index of every input line (index into `templates`). */
  clusterOf: Int32Array;
  /** Template text per cluster, `<*>` where a variable stands. */
  templates: string[];
}

/**
 * Groups log lines by template (Drain / LogPai family, no per-system settings): every line is reduced to
 * its skeleton in one character scan (`template-mask.ts`), equal skeletons are interned with a Map, and
 * the distinct skeletons are merged into templates (`template-grouping.ts`). The result does not depend on
 * line order, and an empty line is a template of its own (the empty template).
 */
export function mineTemplates(lines: readonly string[]): MinedTemplates {
  const ids = new Map<string, number>();
  const skeletons: string[] = [];
  const counts: number[] = [];
  const skeletonOfLine = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const sk = skeletonOf(lines[i]!);
    let id = ids.get(sk);
    if (id === undefined) {
      id = skeletons.length;
      ids.set(sk, id);
      skeletons.push(sk);
      counts.push(1);
    } else counts[id]!++;
    skeletonOfLine[i] = id;
  }
  const { groupOf, templates } = groupSkeletons(skeletons, counts);
  const clusterOf = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) clusterOf[i] = groupOf[skeletonOfLine[i]!]!;
  return { clusterOf, templates: templates.map(printableTemplate) };
}
