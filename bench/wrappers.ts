/**
 * What the agents really send, compressed as `distil compress` would (default config and keep model):
 * one large CI log plain, then as Claude Code's Read returns it (`N\t<line>`, as 2.1.332 prints it)
 * and as `cat -n` numbers it, as Codex's exec output (classic and unified, capped and not), and
 * with ~1,400 generic anchors — each figure beside the plain log's from the same run. Then re-reads
 * through the session layer, each beside what a client sends without Distil.
 *
 *   pnpm bench:wrappers [--anchors-from REQUEST.json]
 *
 * The log is the corpus's 1,836-line failing CI log (cidiff_breakages/cv_45) when the corpus is there,
 * with its labelled error lines as the key lines; else a generated log of the same length. Anchors come
 * from `--anchors-from` (a recorded Messages request body: its system prompt and tool definitions, what a
 * client ships to every user) or else from this repository's READMEs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import {
  asCodexExec,
  asReadOutput,
  ciLog,
  collectAnchors,
  compressBlock,
  countTokens,
  detectKind,
  MemoryRestoreStore,
  mentionsAnchor,
  pipelineCompressor,
  restoreBlock,
  Session,
} from '@distil/core';
import { formatTable } from '../apps/cli/src/table.js';
import { corpusPath } from './corpus-path.js';

const root = join(import.meta.dirname, '..');
const config = DistilConfig.parse({});
const keepModel = await loadKeepModel(config.keepModel);
const norm = (s: string): string => s.split(/\s+/).filter(Boolean).join(' ');

/** The CI log and the lines that must stay visible. */
function theLog(): { name: string; text: string; key: string[] } {
  const corpus = corpusPath();
  const dir = corpus && join(corpus, 'tool_outputs/cidiff_breakages/cv_45');
  if (dir && existsSync(join(dir, 'fail.log'))) {
    const text = readFileSync(join(dir, 'fail.log'), 'utf8');
    const lines = text.split(/\r\n|\r|\n/);
    const key: string[] = [];
    for (const row of readFileSync(join(dir, 'groundtruth'), 'utf8').split('\n')) {
      const m = /^\s*\w+\s+(\d+)-(\d+)/.exec(row);
      if (m) key.push(...lines.slice(Number(m[1]) - 1, Number(m[2])));
    }
    return { name: 'corpus cidiff_breakages/cv_45/fail.log', text, key: key.filter((l) => l.trim()) };
  }
  const log = ciLog();
  return { name: 'generated CI log (corpus not found)', text: log.text, key: [...log.keyLines] };
}

/** ~1,400 anchors a client ships to every user, from a recorded request or this repository's prose. */
function genericAnchors(): { source: string; anchors: Set<string> } {
  const at = process.argv.indexOf('--anchors-from');
  if (at > 0 && process.argv[at + 1]) {
    const file = process.argv[at + 1]!;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const body = (parsed['body'] ?? parsed) as Record<string, unknown>;
    const anchors = collectAnchors([
      JSON.stringify(body['system'] ?? ''),
      JSON.stringify(body['tools'] ?? []),
    ]);
    return { source: `system prompt and tool definitions of ${file}`, anchors };
  }
  const readmes = [join(root, 'README.md')];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const path = join(root, group, name, 'README.md');
      if (existsSync(path)) readmes.push(path);
    }
  }
  const words = [...collectAnchors(readmes.map((p) => readFileSync(p, 'utf8')))].slice(0, 1400);
  return { source: `${words.length} words of this repository's READMEs`, anchors: new Set(words) };
}

interface Figure {
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly visible: number;
  readonly exact: boolean;
  readonly tier: string;
}

async function measure(text: string, key: readonly string[], anchors?: ReadonlySet<string>): Promise<Figure> {
  const store = new MemoryRestoreStore();
  const block: Block = { id: 'log', role: 'tool', kind: detectKind(text), text, trusted: false };
  const out = await compressBlock(block, {
    keepModel,
    store,
    tiers: config.tiers,
    ...(anchors ? { anchors } : {}),
  });
  const shown = norm(out.text);
  return {
    tokensIn: countTokens(text),
    tokensOut: countTokens(out.text),
    visible: key.filter((line) => shown.includes(norm(line))).length,
    exact: (await restoreBlock(out.text, out.handles, store)) === text,
    tier: `${out.tier} (${block.kind})`,
  };
}

const log = theLog();
const { source, anchors } = genericAnchors();
const logLines = log.text.split(/\r\n|\r|\n/);
const anchored = logLines.filter((l) => mentionsAnchor(l, anchors)).length;
const saved = (f: Figure): number => 100 * (1 - f.tokensOut / f.tokensIn);
const plain = await measure(log.text, log.key);
const forms: [string, string, ReadonlySet<string>?][] = [
  ['as Read output (N\\t, Claude Code 2.1.332)', asReadOutput(log.text)],
  ['as `cat -n` output (padded numbers)', asReadOutput(log.text, { padded: true })],
  ['as Codex exec output', asCodexExec(log.text, { exitCode: 1, wallSeconds: 41.3 })],
  ['as Codex exec_command output', asCodexExec(log.text, { style: 'unified', exitCode: 1 })],
  [`with ${anchors.size} generic anchors`, log.text, anchors],
  [`as Read output with ${anchors.size} generic anchors`, asReadOutput(log.text), anchors],
];
const rows: (string | number)[][] = [];
const row = (name: string, f: Figure, comparable = true): void => {
  const points = saved(f) - saved(plain);
  rows.push([
    name,
    f.tier,
    f.tokensIn,
    f.tokensOut,
    `${saved(f).toFixed(1)}%`,
    name === 'plain (baseline)' || !comparable ? '—' : `${points >= 0 ? '+' : ''}${points.toFixed(1)}`,
    `${f.visible}/${log.key.length}`,
    f.exact ? 'yes' : 'NO',
  ]);
};
row('plain (baseline)', plain);
for (const [name, text, extra] of forms) row(name, await measure(text, log.key, extra));
// Codex caps an output at 10,000 tokens by default: a different (smaller) input, not comparable to plain
const capped = asCodexExec(log.text, { exitCode: 1, style: 'unified', maxChars: 40_000 });
row('as Codex output capped at 10k tokens', await measure(capped, log.key), false);

process.stdout.write(`log: ${log.name}, ${logLines.length} lines; key lines: ${log.key.length}\n`);
process.stdout.write(`anchors: ${source}; ${anchored} of ${logLines.length} log lines name one\n\n`);
process.stdout.write(
  formatTable(
    [
      'form',
      'tier (kind)',
      'tokens in',
      'tokens out',
      'saved',
      'vs plain (points)',
      'key lines',
      'byte-exact',
    ],
    rows,
  ),
);

/** A source file of `n` functions. */
function sourceFile(n: number): string[] {
  const lines = ["import { clamp } from './math.js';", ''];
  for (let i = 0; i < n; i++) {
    lines.push(
      `/** Scales reading ${i} into the unit range. */`,
      `export function scale${i}(value: number, limit: number): number {`,
      `  const bounded = clamp(value, 0, limit * ${i + 2});`,
      `  const ratio = bounded / (limit * ${i + 2});`,
      `  if (ratio > 0.${(i % 9) + 1}) console.debug('reading ${i} past its mark');`,
      `  return Math.round(ratio * ${1000 + i}) / ${1000 + i};`,
      '}',
      '',
    );
  }
  return lines;
}

/** Tokens the session sends for each read of a sequence, beside the read itself. */
async function reReads(
  reads: readonly string[],
): Promise<{ sent: number; direct: number; encoding: string }[]> {
  const store = new MemoryRestoreStore();
  const session = new Session({
    store,
    compress: pipelineCompressor({ keepModel, store, tiers: config.tiers }),
  });
  const out = [];
  let id = 0;
  for (const text of reads) {
    const turn = await session.addTurn([
      { id: `r${id++}`, role: 'tool', kind: detectKind(text), text, trusted: false },
    ]);
    const sent = turn.added[0]!;
    out.push({ sent: countTokens(sent.text), direct: countTokens(text), encoding: sent.encoding });
  }
  return out;
}

const file = sourceFile(120);
const edited = [...file];
edited.splice(12, 0, '  // clamp first: readings can be negative');
const [first, afterEdit, folded] = await reReads([
  asReadOutput(file.join('\n')),
  asReadOutput(edited.join('\n')),
  asReadOutput(edited.join('\n'), { offset: 5, limit: 40 }),
]);
const small = sourceFile(9).join('\n');
const [, partial] = await reReads([asReadOutput(small), asReadOutput(small, { offset: 20, limit: 40 })]);
const [, codexAgain] = await reReads([
  asCodexExec(log.text, { style: 'unified', wallSeconds: 40.1 }),
  asCodexExec(log.text, { style: 'unified', wallSeconds: 38.7 }),
]);
const sessionRows = [
  ['Read of a 961-line source file', first!.encoding, first!.direct, first!.sent],
  ['Read again after an edit inserted line 13', afterEdit!.encoding, afterEdit!.direct, afterEdit!.sent],
  ['then lines 5–44 of it, some folded before', folded!.encoding, folded!.direct, folded!.sent],
  ['Read of a 73-line file, then lines 20–59', partial!.encoding, partial!.direct, partial!.sent],
  ['Codex runs the same command again', codexAgain!.encoding, codexAgain!.direct, codexAgain!.sent],
];
process.stdout.write('\nre-reads through the session layer (tokens for that block):\n');
process.stdout.write(formatTable(['read', 'sent as', 'direct', 'through Distil'], sessionRows));
