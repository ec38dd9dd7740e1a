/**
 * Tier-0 speed: template mining in lines per second and each lossless transform in MB/s, each printed
 * beside floors measured in the same run on the same bytes — splitting the text into lines, and hashing
 * it with SHA-256. Input: the Loghub-2k logs and the GitHub API JSON fixtures of the corpus
 * (`$DISTIL_CORPUS`, else ../shared/corpus), or generated logs and JSON when the corpus is absent.
 * Every figure is the best of several runs (the machine is shared; the best run is the least disturbed).
 *
 *   pnpm bench:tier0
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  canonicalJson,
  compactColumnar,
  detectKind,
  extractVolatile,
  foldLogLines,
  foldRepeats,
  losslessEncode,
  mineTemplates,
} from '@distil/core';
import { corpusPath } from './corpus-path.js';

const RUNS = Number(process.env['RUNS'] ?? 5);

/** Best (shortest) wall time of `fn` over RUNS runs, in seconds. */
function best(fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    fn();
    min = Math.min(min, performance.now() - t);
  }
  return min / 1000;
}

/** A deterministic generated log (used when the corpus is absent): 40 templates, numbers, ids, hosts. */
function generatedLogs(): string[][] {
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const words = ['worker', 'block', 'session', 'request', 'cache', 'disk', 'queue', 'job', 'node', 'peer'];
  const verbs = ['started', 'finished', 'failed', 'retrying', 'received', 'sent', 'closed', 'opened'];
  const templates = Array.from({ length: 40 }, (_, k) => {
    const w = words[k % words.length]!;
    const v = verbs[(k * 7) % verbs.length]!;
    return (i: number): string =>
      `2024-05-${String(1 + (i % 28)).padStart(2, '0')} 12:${String(i % 60).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')},${rnd(1000)} INFO [${w}-${rnd(8)}] ${w} ${v} id=${rnd(1e9).toString(16)} from 10.0.${rnd(256)}.${rnd(256)}:${1024 + rnd(60000)} in ${rnd(5000)} ms`;
  });
  return Array.from({ length: 16 }, () => Array.from({ length: 2000 }, (_, i) => templates[rnd(40)]!(i)));
}

function generatedJson(): string[] {
  return Array.from({ length: 20 }, (_, f) =>
    JSON.stringify(
      {
        total_count: 50,
        items: Array.from({ length: 50 }, (_, i) => ({
          id: f * 1000 + i,
          login: `user${i}`,
          site_admin: i % 7 === 0,
          score: 1.5 + i,
          url: `https://api.example.com/users/user${i}`,
          labels: [{ name: 'bug', color: 'ff0000' }],
        })),
      },
      null,
      2,
    ),
  );
}

const corpus = corpusPath();
let logs: string[][];
let jsonTexts: string[];
let source: string;
const loghub = corpus === null ? null : join(corpus, 'loghub', 'loghub_2k_corrected');
if (loghub !== null && existsSync(loghub)) {
  logs = readdirSync(loghub)
    .filter((s) => existsSync(join(loghub, s, `${s}_2k.log`)))
    .sort()
    .map((s) => {
      const lines = readFileSync(join(loghub, s, `${s}_2k.log`), 'utf8').split(/\r\n|\r|\n/);
      if (lines.at(-1) === '') lines.pop();
      return lines;
    });
  const fixtures = join(
    corpus!,
    'tool_outputs',
    'github_api_octokit_fixtures',
    'scenarios',
    'api.github.com',
  );
  jsonTexts = existsSync(fixtures)
    ? readdirSync(fixtures)
        .map((d) => join(fixtures, d, 'normalized-fixture.json'))
        .filter(existsSync)
        .map((f) => readFileSync(f, 'utf8'))
    : generatedJson();
  source = `corpus at ${corpus} (Loghub-2k, ${logs.length} systems; ${jsonTexts.length} GitHub API fixtures)`;
} else {
  logs = generatedLogs();
  jsonTexts = generatedJson();
  source = 'corpus not found (set DISTIL_CORPUS): generated logs and JSON instead';
}

const logTexts = logs.map((l) => l.join('\n'));
const lineCount = logs.reduce((n, l) => n + l.length, 0);
const logBytes = logTexts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const jsonBytes = jsonTexts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const mb = (bytes: number, seconds: number): string => `${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;

// Warm up the JIT on everything once.
for (const l of logs) mineTemplates(l);
for (const t of jsonTexts) compactColumnar(t);

console.log(`tier-0 speed — ${source}`);
console.log(
  `${lineCount} log lines (${(logBytes / 1e6).toFixed(1)} MB), ${(jsonBytes / 1e6).toFixed(1)} MB JSON, best of ${RUNS} runs\n`,
);

const splitLog = best(() => {
  for (const t of logTexts) t.split('\n');
});
const hashLog = best(() => {
  for (const t of logTexts) createHash('sha256').update(t).digest();
});
const hashJson = best(() => {
  for (const t of jsonTexts) createHash('sha256').update(t).digest();
});
const mine = best(() => {
  for (const l of logs) mineTemplates(l);
});
const mineAll = best(() => mineTemplates(logs.flat()));

const rows: [string, string, string][] = [
  ['floor: split into lines', `${(lineCount / splitLog / 1e6).toFixed(2)} M lines/s`, mb(logBytes, splitLog)],
  [
    'floor: SHA-256 (log bytes)',
    `${(lineCount / hashLog / 1e6).toFixed(2)} M lines/s`,
    mb(logBytes, hashLog),
  ],
  ['mineTemplates, per 2k-line log', `${(lineCount / mine / 1e6).toFixed(2)} M lines/s`, mb(logBytes, mine)],
  [
    'mineTemplates, all logs at once',
    `${(lineCount / mineAll / 1e6).toFixed(2)} M lines/s`,
    mb(logBytes, mineAll),
  ],
];
const logTransforms: [string, (t: string, lines: string[]) => void][] = [
  ['foldLogLines (templates + repeats)', (_t, l) => foldLogLines(l)],
  ['foldRepeats', (_t, l) => foldRepeats(l)],
  ['extractVolatile', (t) => extractVolatile(t)],
  ['detectKind', (t) => detectKind(t)],
  ['losslessEncode(log, volatile)', (t) => losslessEncode(t, 'log', undefined, { volatile: true })],
];
for (const [name, fn] of logTransforms) {
  const s = best(() => {
    for (let i = 0; i < logs.length; i++) fn(logTexts[i]!, logs[i]!);
  });
  rows.push([name, `${(lineCount / s / 1e6).toFixed(2)} M lines/s`, mb(logBytes, s)]);
}
rows.push(['floor: SHA-256 (JSON bytes)', '', mb(jsonBytes, hashJson)]);
const jsonTransforms: [string, (t: string) => void][] = [
  ['canonicalJson', (t) => canonicalJson(t)],
  ['compactColumnar', (t) => compactColumnar(t)],
  ['losslessEncode(json)', (t) => losslessEncode(t, 'json')],
];
for (const [name, fn] of jsonTransforms) {
  const s = best(() => {
    for (const t of jsonTexts) fn(t);
  });
  rows.push([name, '', mb(jsonBytes, s)]);
}

const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padStart(12)}`);
const perLine = lineCount / mine;
console.log(
  `\ntemplate mining: ${(perLine / 1e6).toFixed(2)} M lines/s (target ≥ 1.50 M) — ${(splitLog / mine).toFixed(3)}× the line-split floor`,
);
