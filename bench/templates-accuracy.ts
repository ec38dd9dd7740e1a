/**
 * Template-mining grouping accuracy on the raw Loghub-2k lines of every system, beside Drain's published
 * figure (which Drain reaches with per-system regexes and thresholds; this miner has no per-system
 * settings). Grouping accuracy (Zhu et al., ICSE-SEIP 2019): a line is right when the set of lines in its
 * cluster equals the set of lines of its ground-truth event (`*_structured_corrected.csv`, EventId).
 * Reads `$DISTIL_CORPUS` (else ../shared/corpus) and says so when it is absent.
 *
 *   pnpm bench:templates [--explain [SYSTEM…]]   # --explain: the largest misgrouped events
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MinedTemplates, mineTemplates } from '@distil/core';
import { corpusPath } from './corpus-path.js';

const corpus = corpusPath();
const root = corpus === null ? null : join(corpus, 'loghub', 'loghub_2k_corrected');
if (root === null || !existsSync(root)) {
  console.log(
    'corpus not found (set DISTIL_CORPUS to a folder holding loghub/loghub_2k_corrected): accuracy not measured',
  );
  process.exit(0);
}

/** Rows of a CSV file (quoted fields with doubled quotes, as Loghub writes them). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field.length > 0 || row.length > 0) rows.push([...row, field]);
  return rows;
}

function groups<K>(keys: ArrayLike<K>): Map<K, number[]> {
  const map = new Map<K, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const list = map.get(keys[i]!);
    if (list === undefined) map.set(keys[i]!, [i]);
    else list.push(i);
  }
  return map;
}

function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

function groupingAccuracy(truth: readonly string[], predicted: Int32Array): number {
  const byPredicted = groups(predicted);
  let right = 0;
  for (const members of groups(truth).values()) {
    if (sameMembers(byPredicted.get(predicted[members[0]!]!)!, members)) right += members.length;
  }
  return right / truth.length;
}

/** Prints the largest ground-truth events that were split or merged, with the clusters they went to. */
function explain(lines: readonly string[], truth: readonly string[], mined: MinedTemplates): void {
  const byPredicted = groups(mined.clusterOf);
  const wrong = [...groups(truth)]
    .filter(([, members]) => !sameMembers(byPredicted.get(mined.clusterOf[members[0]!]!)!, members))
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 5);
  for (const [event, members] of wrong) {
    console.log(`   ${event} (${members.length} lines), e.g. ${lines[members[0]!]!.slice(0, 140)}`);
    for (const [cluster, count] of groups(members.map((i) => mined.clusterOf[i]!))) {
      const size = byPredicted.get(cluster)!.length;
      console.log(
        `     ${String(count.length).padStart(4)} in cluster of ${size}: ${mined.templates[cluster]!.slice(0, 130)}`,
      );
    }
  }
}

const drain = new Map<string, number>();
const drainCsv = join(corpus!, 'loghub', 'benchmarks', 'drain_grouping_accuracy.csv');
if (existsSync(drainCsv)) {
  for (const row of csvRows(readFileSync(drainCsv, 'utf8')).slice(1)) {
    if (row[0] && row[1]) drain.set(row[0], Number(row[1]));
  }
}
const explainAt = process.argv.indexOf('--explain');
const explainOnly = explainAt < 0 ? [] : process.argv.slice(explainAt + 1);

console.log(`template grouping accuracy on Loghub-2k (${root}); no per-system settings\n`);
console.log(`${'system'.padEnd(12)}  ${'distil'.padStart(6)}  ${'Drain'.padStart(6)}  templates`);
let sum = 0;
let drainSum = 0;
let systems = 0;
for (const system of readdirSync(root).sort()) {
  const log = join(root, system, `${system}_2k.log`);
  if (!existsSync(log)) continue;
  let structured = join(root, system, `${system}_2k.log_structured_corrected.csv`);
  if (!existsSync(structured)) structured = join(root, system, `${system}_2k.log_structured.csv`);
  const rows = csvRows(readFileSync(structured, 'utf8'));
  const column = rows[0]!.indexOf('EventId');
  const truth = rows.slice(1).map((r) => r[column]!);
  const lines = readFileSync(log, 'utf8').split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const mined = mineTemplates(lines);
  const ga = groupingAccuracy(truth, mined.clusterOf);
  const published = drain.get(system);
  sum += ga;
  drainSum += published ?? 0;
  systems++;
  console.log(
    `${system.padEnd(12)}  ${ga.toFixed(3).padStart(6)}  ${(published?.toFixed(3) ?? '—').padStart(6)}  ${mined.templates.length}`,
  );
  if (explainAt >= 0 && (explainOnly.length === 0 || explainOnly.includes(system)))
    explain(lines, truth, mined);
}
console.log(
  `${'mean'.padEnd(12)}  ${(sum / systems).toFixed(3).padStart(6)}  ${(drainSum / systems).toFixed(3).padStart(6)}`,
);
console.log(
  `\ntarget: mean ≥ 0.900 (Drain's published mean over these ${systems} systems: ${(drainSum / systems).toFixed(3)})`,
);
