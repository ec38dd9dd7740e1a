/**
 * Quality on real CI logs: is every labelled failure line still visible without an expand, how many
 * tokens go, and does every handle restore the input byte for byte? Mirrors the acceptance measure: a
 * line counts as visible when it appears verbatim (whitespace-normalised), or with only times, UUIDs and
 * long ids lifted out. Each figure is printed beside the one in `quality-baseline.json` (the previous
 * release's), so a change shows what it costs as well as what it gains; `--write-baseline` stores this
 * run's figures there. Usage: pnpm bench:quality [LIMIT_PER_SET] [--show-lost] [--write-baseline] [--keep-model NAME]
 */
import { basename, join } from 'node:path';
import { keepModelConfigFromFlag, loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, countTokens, detectKind, MemoryRestoreStore, restoreBlock } from '@distil/core';
import { formatTable } from '../apps/cli/src/table.js';
import { requireCorpus } from './corpus-path.js';
import { beside, readBaseline, type SetFigures, writeBaseline } from './quality-baseline.js';
import { isBundled, qualityCases, readText, shownPath, splitLines, visibleCount } from './quality-cases.js';

const corpus = requireCorpus();
const showLost = process.argv.includes('--show-lost');
const limit = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? Number.POSITIVE_INFINITY);
const config = DistilConfig.parse({});
// `--keep-model logistic` measures another model; the baseline is the default's
const modelAt = process.argv.indexOf('--keep-model');
const keepModel = await loadKeepModel(
  modelAt === -1 ? config.keepModel : keepModelConfigFromFlag(process.argv[modelAt + 1]!),
);
const store = new MemoryRestoreStore();
const cases = qualityCases(corpus);
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
  const { seen, total, missing } = visibleCount(out.text, c.wanted);
  if (seen < total) {
    lost.push(`${c.set} ${shownPath(c.path)}: ${total - seen}/${total} not visible`);
    if (showLost) for (const w of missing.slice(0, 6)) lost.push(`    ${JSON.stringify(w.slice(0, 160))}`);
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
  t.total += total;
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
    if (lineCount > 1000 && saved < 0.5 && total * 2 < lineCount)
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
// The acceptance figures are over the real corpus; the bundled sets are reported beside them.
const all = [...per]
  .filter(([set]) => !isBundled(set))
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
  files: [...per].filter(([set]) => !isBundled(set)).reduce((n, [, t]) => n + t.files, 0),
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
