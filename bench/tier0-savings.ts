/**
 * What the lossless tier alone saves, in o200k tokens, on real tool outputs — per set of
 * `$DISTIL_CORPUS/tool_outputs` (else ../shared/corpus) and on the bundled dataset
 * (datasets/generated/tool_outputs) — with every transform checked to decode exactly (byte for byte, or
 * to the canonical JSON for JSON input and the plain text where terminal styling was removed; the
 * pipeline keeps the original bytes behind a handle for those). Kinds are detected, as the pipeline does
 * when none is given. No line is protected here: this is the tier on its own (`pnpm bench:quality`
 * prints the pipeline's lossless depth, with the salience guard's lines left verbatim).
 * Two columns: tier 0 with its defaults (for logs, volatile values are lifted into the trailing table
 * only when that makes the text shorter, and only values a time/UUID/id masker would hide), and with
 * every volatile field lifted (`volatile: true`).
 *
 *   pnpm bench:tier0-savings
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  canonicalJson,
  countTokens,
  detectKind,
  type LosslessResult,
  losslessDecode,
  losslessEncode,
  stripStyling,
} from '@distil/core';
import { corpusPath } from './corpus-path.js';

/** Which files of each corpus set are tool outputs (labels, licences and parsed answers are not). */
const SETS: Record<string, (path: string) => boolean> = {
  bugswarm_gha_logs: (p) => p.endsWith('.log'),
  cidiff_breakages: (p) => p.endsWith('.log'),
  errorformat: (p) => p.endsWith('.in'),
  github_api_octokit_fixtures: (p) => p.endsWith('.json'),
  holmesgpt_k8s: (p) => p.endsWith('.txt') || p.endsWith('conversation_history.json'),
  logchunks: (p) => p.endsWith('.log'),
  openhands_infer_logs: (p) => p.endsWith('.log'),
  rustc_trybuild_thiserror: (p) => p.endsWith('.stderr'),
};

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(path);
  }
  return out;
}

interface Tally {
  files: number;
  before: number;
  after: number;
  afterVolatile: number;
  ratio: number; // sum over files of after/before
  ratioVolatile: number;
  failures: string[];
}

/** What decoding must give: the input, or its canonical JSON / plain text after a non-invertible step. */
function decodesTo(text: string, encoded: LosslessResult): string | null {
  if (encoded.exact) return text;
  if (encoded.transforms.includes('canonical-json')) return canonicalJson(text);
  return stripStyling(text);
}

function measure(paths: readonly string[], root: string): Tally {
  const t: Tally = {
    files: 0,
    before: 0,
    after: 0,
    afterVolatile: 0,
    ratio: 0,
    ratioVolatile: 0,
    failures: [],
  };
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    if (text.length === 0) continue;
    const kind = detectKind(text);
    const before = countTokens(text);
    const sizes: number[] = [];
    for (const volatile of [undefined, true]) {
      const encoded = losslessEncode(text, kind, undefined, volatile === undefined ? {} : { volatile });
      const decoded = losslessDecode(encoded.text, encoded.transforms);
      const expected = decodesTo(text, encoded);
      if (decoded !== expected) t.failures.push(`${relative(root, path)} (volatile=${volatile})`);
      sizes.push(countTokens(encoded.text));
    }
    t.files++;
    t.before += before;
    t.after += sizes[0]!;
    t.afterVolatile += sizes[1]!;
    t.ratio += sizes[0]! / Math.max(1, before);
    t.ratioVolatile += sizes[1]! / Math.max(1, before);
  }
  return t;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const rows: [string, Tally][] = [];
const corpus = corpusPath();
const toolOutputs = corpus === null ? null : join(corpus, 'tool_outputs');
if (toolOutputs !== null && existsSync(toolOutputs)) {
  for (const [set, wanted] of Object.entries(SETS)) {
    const dir = join(toolOutputs, set);
    if (existsSync(dir)) rows.push([set, measure(files(dir).filter(wanted), toolOutputs)]);
  }
} else console.log('corpus not found (set DISTIL_CORPUS): only the bundled dataset is measured');
const bundled = join(import.meta.dirname, '..', 'datasets', 'generated', 'tool_outputs');
if (existsSync(bundled)) {
  for (const set of readdirSync(bundled).sort()) {
    const dir = join(bundled, set);
    if (statSync(dir).isDirectory()) rows.push([`bundled/${set}`, measure(files(dir), bundled)]);
  }
}

console.log('tier-0 (lossless) token savings, o200k; per set: total tokens saved, and the mean over files\n');
const w = Math.max(...rows.map(([n]) => n.length), 10);
console.log(
  `${'set'.padEnd(w)}  files  ${'tokens'.padStart(9)}  saved  mean/file  +volatile  mean/file  round trip`,
);
/** Per set, the mean of the sets' savings; over all files, tokens saved over tokens in. */
const summary = (list: [string, Tally][]): { sets: number; best: number; tokens: number } => ({
  sets: list.reduce((s, [, t]) => s + (1 - t.after / t.before), 0) / Math.max(1, list.length),
  best:
    list.reduce((s, [, t]) => s + (1 - Math.min(t.after, t.afterVolatile) / t.before), 0) /
    Math.max(1, list.length),
  tokens:
    1 -
    list.reduce((s, [, t]) => s + t.after, 0) /
      Math.max(
        1,
        list.reduce((s, [, t]) => s + t.before, 0),
      ),
});
for (const [name, t] of rows) {
  console.log(
    `${name.padEnd(w)}  ${String(t.files).padStart(5)}  ${String(t.before).padStart(9)}  ${pct(1 - t.after / t.before).padStart(5)}  ${pct(1 - t.ratio / t.files).padStart(9)}  ${pct(1 - t.afterVolatile / t.before).padStart(9)}  ${pct(1 - t.ratioVolatile / t.files).padStart(9)}  ${t.failures.length === 0 ? 'exact' : `${t.failures.length} FAILED`}`,
  );
  for (const f of t.failures.slice(0, 3)) console.log(`    round trip failed: ${f}`);
}
const corpusRows = rows.filter(([n]) => !n.startsWith('bundled/'));
const bundledRows = rows.filter(([n]) => n.startsWith('bundled/'));
for (const [label, list] of [
  ['corpus tool outputs', corpusRows],
  ['bundled dataset', bundledRows],
] as const) {
  if (list.length === 0) continue;
  const { sets, best, tokens } = summary(list);
  console.log(
    `\n${label}: ${pct(tokens)} of all their tokens saved; mean over ${list.length} sets ${pct(sets)} (default), ${pct(best)} (best of default / +volatile per set)`,
  );
}
console.log('target: ≥ 35% averaged over the tool outputs');
