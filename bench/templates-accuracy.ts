import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mineTemplates } from '../packages/core/src/tier0/template-miner.js';

const corpus = resolve(
  process.env['DISTIL_CORPUS'] ?? join(import.meta.dirname, '..', '..', 'shared', 'corpus'),
);
const root = join(corpus, 'loghub', 'loghub_2k_corrected');
if (!existsSync(root)) {
  console.log(`corpus not found at ${root} (set DISTIL_CORPUS): template accuracy not measured`);
  process.exit(0);
}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function groupingAccuracy(truth: readonly string[], pred: ArrayLike<number>): number {
  const byT = new Map<string, number[]>();
  const byP = new Map<number, number[]>();
  truth.forEach((t, i) => {
    (byT.get(t) ?? byT.set(t, []).get(t)!).push(i);
  });
  for (let i = 0; i < pred.length; i++) (byP.get(pred[i]!) ?? byP.set(pred[i]!, []).get(pred[i]!)!).push(i);
  let right = 0;
  for (const members of byT.values()) {
    const p = byP.get(pred[members[0]!]!)!;
    if (p.length === members.length && p.every((x, k) => x === members[k])) right += members.length;
  }
  return right / truth.length;
}

const drain = new Map<string, number>();
for (const row of csvRows(
  readFileSync(join(corpus, 'loghub', 'benchmarks', 'drain_grouping_accuracy.csv'), 'utf8'),
).slice(1)) {
  if (row[0] && row[1]) drain.set(row[0], Number(row[1]));
}
function explain(
  system: string,
  lines: string[],
  truth: string[],
  mined: ReturnType<typeof mineTemplates>,
): void {
  const byT = new Map<string, number[]>();
  truth.forEach((t, i) => {
    (byT.get(t) ?? byT.set(t, []).get(t)!).push(i);
  });
  const byP = new Map<number, number[]>();
  mined.clusterOf.forEach((p, i) => {
    (byP.get(p) ?? byP.set(p, []).get(p)!).push(i);
  });
  const bad: [string, number[]][] = [];
  for (const [t, m] of byT) {
    const p = byP.get(mined.clusterOf[m[0]!]!)!;
    if (!(p.length === m.length && p.every((x, k) => x === m[k]))) bad.push([t, m]);
  }
  bad.sort((a, b) => b[1].length - a[1].length);
  for (const [t, m] of bad.slice(0, Number(process.env['SHOW'] ?? 6))) {
    const preds = new Map<number, number>();
    for (const i of m) preds.set(mined.clusterOf[i]!, (preds.get(mined.clusterOf[i]!) ?? 0) + 1);
    console.log(`  truth ${t} (${m.length} lines) e.g. ${lines[m[0]!]!.slice(0, 160)}`);
    for (const [p, c] of [...preds].sort((a, b) => b[1] - a[1]).slice(0, 4)) {
      const others = new Map<string, number>();
      for (const i of byP.get(p)!)
        if (truth[i] !== t) others.set(truth[i]!, (others.get(truth[i]!) ?? 0) + 1);
      console.log(
        `    -> ${c} in [${mined.templates[p]!.slice(0, 150)}] (size ${byP.get(p)!.length}; other truths ${[
          ...others,
        ]
          .slice(0, 3)
          .map(([k, v]) => k + ':' + v)
          .join(' ')})`,
      );
    }
  }
}

const verbose = process.argv.includes('--verbose');
let sum = 0,
  dsum = 0,
  n = 0;
for (const system of readdirSync(root).sort()) {
  const log = join(root, system, `${system}_2k.log`);
  if (!existsSync(log)) continue;
  let st = join(root, system, `${system}_2k.log_structured_corrected.csv`);
  if (!existsSync(st)) st = join(root, system, `${system}_2k.log_structured.csv`);
  const rows = csvRows(readFileSync(st, 'utf8'));
  const col = rows[0]!.indexOf('EventId');
  const truth = rows
    .slice(1)
    .filter((r) => r.length > col)
    .map((r) => r[col]!);
  const lines = readFileSync(log, 'utf8').split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const mined = mineTemplates(lines);
  const ga = groupingAccuracy(truth, mined.clusterOf);
  sum += ga;
  dsum += drain.get(system) ?? 0;
  n++;
  console.log(
    `${system.padEnd(12)} ${ga.toFixed(3)}  drain ${(drain.get(system) ?? NaN).toFixed(3)}  clusters ${mined.templates.length}`,
  );
  if (verbose && (process.argv.includes(system) || ga < 0.9)) explain(system, lines, truth, mined);
}
console.log(`mean         ${(sum / n).toFixed(3)}  drain ${(dsum / n).toFixed(3)}`);
