/**
 * The default pipeline's speed on logs (compressBlock with the salience keep model and an in-memory
 * store) in MB/s, and template mining in lines/s, each beside floors measured in the same run on the same
 * bytes: splitting into lines, and hashing with SHA-256. Input: the real CI logs of the corpus when
 * present (`$DISTIL_CORPUS`), else the bundled dataset's logs. Best of several runs: the machine is shared.
 *
 *   pnpm bench:speed
 *   pnpm bench:speed --mining     # template mining only (same table, one row; RUNS=n for more runs)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, MemoryRestoreStore, mineTemplates } from '@distil/core';
import { formatTable } from '../apps/cli/src/table.js';
import { corpusPath } from './corpus-path.js';

const RUNS = Number(process.env['RUNS'] ?? 5);
const MINING_ONLY = process.argv.includes('--mining');

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => accept(f) && statSync(f).isFile());
}

const corpus = corpusPath();
const logFiles = corpus
  ? filesUnder(join(corpus, 'tool_outputs/cidiff_breakages'), (f) => f.endsWith('fail.log'))
  : filesUnder(join(import.meta.dirname, '../datasets/generated/tool_outputs'), (f) =>
      /\.(log|txt)$/.test(f),
    );
const loghub = corpus
  ? filesUnder(join(corpus, 'loghub/loghub_2k_corrected'), (f) => f.endsWith('_2k.log'))
  : logFiles;
const logs = logFiles.map((f) => readFileSync(f, 'utf8'));
const mining = loghub.map((f) => readFileSync(f, 'utf8').split(/\r\n|\r|\n/));
const mb = logs.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
const miningLines = mining.reduce((n, l) => n + l.length, 0);

async function best(fn: () => unknown): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min / 1000;
}

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const split = MINING_ONLY ? 0 : await best(() => logs.map((t) => t.split(/\r\n|\r|\n/).length));
const hash = MINING_ONLY ? 0 : await best(() => logs.map((t) => createHash('sha256').update(t).digest()));
const pipeline = await best(async () => {
  if (MINING_ONLY) return;
  const store = new MemoryRestoreStore();
  for (const text of logs)
    await compressBlock(
      { id: 'b', role: 'tool', kind: 'log', text, trusted: false },
      { keepModel, store, tiers },
    );
});
const miningSplit = await best(() => mining.map((lines) => lines.join('\n').split('\n').length));
const mine = await best(() => mining.map((lines) => mineTemplates(lines)));

process.stdout.write(
  `input: ${logs.length} logs, ${mb.toFixed(1)} MB; ${mining.length} logs, ${miningLines} lines for template mining\n`,
);
process.stdout.write(`source: ${corpus ?? 'bundled dataset (no corpus found)'}\n\n`);
process.stdout.write(
  formatTable(
    ['measure', 'figure', 'floor: split lines', 'floor: sha-256', 'target'],
    [
      [
        'default pipeline on logs (MB/s)',
        (mb / pipeline).toFixed(1),
        (mb / split).toFixed(1),
        (mb / hash).toFixed(1),
        '≥ 50',
      ],
      [
        'template mining (lines/s, one core)',
        Math.round(miningLines / mine).toLocaleString('en-US'),
        Math.round(miningLines / miningSplit).toLocaleString('en-US'),
        '—',
        '≥ 1,000,000',
      ],
    ].slice(MINING_ONLY ? 1 : 0),
  ),
);
