/**
 * Quality on real CI logs: is every labelled failure line still visible without an expand, how many
 * tokens go, and does every handle restore the input byte for byte? Mirrors the acceptance measure: a
 * line counts as visible when it appears verbatim (whitespace-normalised), or with only times, UUIDs and
 * long ids lifted out. Each figure is printed beside the one in `quality-baseline.json` (the previous
 * release's), so a change shows what it costs as well as what it gains; `--write-baseline` stores this
 * run's figures there. Usage: pnpm bench:quality [LIMIT_PER_SET] [--show-lost] [--write-baseline] [--keep-model NAME]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { keepModelConfigFromFlag, loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, countTokens, detectKind, MemoryRestoreStore, restoreBlock } from '@distil/core';
import { formatTable } from '../apps/cli/src/table.js';
import { requireCorpus } from './corpus-path.js';
import { beside, readBaseline, type SetFigures, writeBaseline } from './quality-baseline.js';

interface Case {
  readonly set: string;
  readonly path: string;
  readonly wanted: string[];
}

const corpus = requireCorpus();
const showLost = process.argv.includes('--show-lost');
const limit = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? Number.POSITIVE_INFINITY);
const tools = join(corpus, 'tool_outputs');
const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);
const norm = (s: string): string => s.split(/\s+/).filter(Boolean).join(' ');
const VOLATILE =
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b|\b[0-9a-fA-F]{16,}\b|\b\d{5,}\b/g;
const masked = (s: string): string => s.replace(VOLATILE, '#');
const readText = (path: string): string => new TextDecoder().decode(readFileSync(path));

function cidiffCases(): Case[] {
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

function labelledCases(set: string): Case[] {
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

function errorformatCases(): Case[] {
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

/** The bundled dataset: every file's labelled keep lines (labels.jsonl, 1-based, split on '\n'). */
function bundledCases(): Case[] {
  const base = join(import.meta.dirname, '../datasets/generated');
  if (!existsSync(join(base, 'labels.jsonl'))) return [];
  return readText(join(base, 'labels.jsonl'))
    .split('\n')
    .filter(Boolean)
    .map((row) => JSON.parse(row) as { file: string; keep: number[] })
    .map(({ file, keep }) => {
      const lines = readText(join(base, file)).split('\n');
      return { set: 'bundled', path: join(base, file), wanted: keep.map((n) => lines[n - 1] ?? '') };
    });
}

const config = DistilConfig.parse({});
// `--keep-model logistic` measures another model; the baseline is the default's
const modelAt = process.argv.indexOf('--keep-model');
const keepModel = await loadKeepModel(
  modelAt === -1 ? config.keepModel : keepModelConfigFromFlag(process.argv[modelAt + 1]!),
);
const store = new MemoryRestoreStore();
const cases = [
  ...bundledCases(),
  ...cidiffCases(),
  ...labelledCases('logchunks'),
  ...labelledCases('bugswarm_gha_logs'),
  ...errorformatCases(),
];
type Totals = {
  files: number;
  seen: number;
  total: number;
  before: number;
  after: number;
  lossless: number;
  bigBefore: number;
  bigAfter: number;
  exact: number;
  /** The log over 200 lines that saves least, and what it saves. */
  worst?: { file: string; saved: number };
  /** Logs over 1,000 lines saving under 50% while most of their lines are not labelled. */
  under: string[];
};
const per = new Map<string, Totals>();
const taken = new Map<string, number>();
const lost: string[] = [];
const started = performance.now();
let bytes = 0;
for (const c of cases) {
  if ((taken.get(c.set) ?? 0) >= limit) continue;
  taken.set(c.set, (taken.get(c.set) ?? 0) + 1);
  const text = readText(c.path);
  bytes += text.length;
  const block = { id: basename(c.path), role: 'tool' as const, kind: detectKind(text), text, trusted: false };
  const out = await compressBlock(block, { keepModel, store, tiers: config.tiers });
  const lossless = await compressBlock(block, { keepModel, store, tiers: config.tiers, depth: 'lossless' });
  const restored = await restoreBlock(out.text, out.handles, store);
  const outText = norm(out.text);
  const outMasked = masked(outText);
  const wanted = c.wanted.map(norm).filter(Boolean);
  const seen = wanted.filter((w) => outText.includes(w) || outMasked.includes(masked(w))).length;
  if (seen < wanted.length) {
    lost.push(
      `${c.set} ${c.path.slice(tools.length + 1)}: ${wanted.length - seen}/${wanted.length} not visible`,
    );
    if (showLost) {
      const missing = wanted.filter((w) => !outText.includes(w) && !outMasked.includes(masked(w)));
      for (const w of missing.slice(0, 6)) lost.push(`    ${JSON.stringify(w.slice(0, 160))}`);
    }
  }
  const t = per.get(c.set) ?? {
    files: 0,
    seen: 0,
    total: 0,
    before: 0,
    after: 0,
    lossless: 0,
    bigBefore: 0,
    bigAfter: 0,
    exact: 0,
    under: [],
  };
  const before = countTokens(text);
  const after = countTokens(out.text);
  t.files++;
  t.seen += seen;
  t.total += wanted.length;
  t.before += before;
  t.after += after;
  t.lossless += countTokens(lossless.text);
  t.exact += restored === text ? 1 : 0;
  const lineCount = splitLines(text).length;
  if (lineCount > 200) {
    t.bigBefore += before;
    t.bigAfter += after;
    const saved = before === 0 ? 0 : (before - after) / before;
    // the file with its folder: cidiff names every log fail.log
    const file = c.path.slice(c.path.lastIndexOf('/', c.path.lastIndexOf('/') - 1) + 1);
    if (t.worst === undefined || saved < t.worst.saved) t.worst = { file, saved };
    if (lineCount > 1000 && saved < 0.5 && wanted.length * 2 < lineCount)
      t.under.push(`${file} ${(100 * saved).toFixed(1)}%`);
  }
  per.set(c.set, t);
}
const seconds = (performance.now() - started) / 1000;
const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
const figure = (a: number, b: number): number | null => (b === 0 ? null : Math.round((1000 * a) / b) / 10);
const figures: Record<string, SetFigures> = {};
for (const [set, t] of per)
  figures[set] = {
    files: t.files,
    visible: figure(t.seen, t.total),
    saved: figure(t.before - t.after, t.before),
    savedOver200: figure(t.bigBefore - t.bigAfter, t.bigBefore),
    lossless: figure(t.before - t.lossless, t.before),
    worst: t.worst ? `${t.worst.file} ${(100 * t.worst.saved).toFixed(1)}%` : '—',
  };
// The acceptance figures are over the real corpus; the bundled set is reported beside them.
const all = [...per]
  .filter(([set]) => set !== 'bundled')
  .map(([, t]) => t)
  .reduce(
    (a, t) => ({
      seen: a.seen + t.seen,
      total: a.total + t.total,
      bigBefore: a.bigBefore + t.bigBefore,
      bigAfter: a.bigAfter + t.bigAfter,
    }),
    { seen: 0, total: 0, bigBefore: 0, bigAfter: 0 },
  );
figures['corpus'] = {
  files: [...per].filter(([set]) => set !== 'bundled').reduce((n, [, t]) => n + t.files, 0),
  visible: figure(all.seen, all.total),
  saved: null,
  savedOver200: figure(all.bigBefore - all.bigAfter, all.bigBefore),
  lossless: null,
  worst: '—',
};
const baselinePath = join(import.meta.dirname, 'quality-baseline.json');
const baseline = readBaseline(baselinePath);
const rows = Object.entries(figures).map(([set, f]) => {
  const was = baseline?.sets[set];
  return [
    set,
    f.files,
    beside(f.visible, was?.visible),
    beside(f.saved, was?.saved),
    beside(f.savedOver200, was?.savedOver200),
    beside(f.lossless, was?.lossless),
    set === 'corpus' ? '' : `${per.get(set)!.exact}/${f.files}`,
    f.worst,
  ];
});
process.stdout.write(`keep model: ${keepModel.id}; corpus: ${corpus}\n\n`);
process.stdout.write(
  `figures: now (before${baseline ? `, from ${baseline.written}` : ': no quality-baseline.json yet'})\n`,
);
process.stdout.write(
  formatTable(
    [
      'set',
      'files',
      'visible',
      'saved',
      'saved >200 lines',
      'lossless saved',
      'byte-exact',
      'worst >200 lines',
    ],
    rows,
  ),
);
for (const [set, t] of per)
  for (const u of t.under)
    process.stdout.write(`UNDER 50% ${set} ${u} (over 1,000 lines, mostly unlabelled)\n`);
for (const l of lost) process.stdout.write(`LOST ${l}\n`);
process.stdout.write(
  `\ncorpus: visible=${pct(all.seen, all.total)} (target 100%)  saved_on_logs_over_200_lines=${pct(all.bigBefore - all.bigAfter, all.bigBefore)} (target ≥ 70%)  ${(bytes / 1e6 / seconds).toFixed(1)} MB/s end to end incl. token counting\n`,
);
if (process.argv.includes('--write-baseline')) {
  writeBaseline(baselinePath, figures);
  process.stdout.write(`baseline written: ${baselinePath}\n`);
}
