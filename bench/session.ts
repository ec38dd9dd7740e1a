/**
 * Session-layer overhead on a 50-turn, ~500 KB coding trajectory (read → edit → re-read, test runs, logs,
 * JSON), generated here deterministically. Printed beside its baseline, measured in the same run: the
 * per-block compressor alone on every new block, which is what a pipeline without sessions would run.
 * Target: the session layer adds ≤ 1 ms per turn. Then what waking a sleeping proxy session costs (the
 * sha256 of every text, to match them against its digests, and Session.resume of the whole history),
 * beside encoding that history turn by turn.
 *
 *   pnpm bench:session
 */
import { loadKeepModel } from '@distil/codec';
import { addressOf, type Block, DistilConfig, type Turn } from '@distil/contract';
import {
  type BlockCompressor,
  compressBlock,
  MemoryRestoreStore,
  preloadParsers,
  type SentEncoding,
  Session,
} from '@distil/core';

const TURNS = 50;
const RUNS = 5;

/** A tiny seeded generator (mulberry32) so every run measures the same bytes. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pythonFile(name: string, functions: number, version: number): string {
  let out = `"""Module ${name}."""\nimport json\nimport logging\nfrom pathlib import Path\n\nlog = logging.getLogger(__name__)\n`;
  for (let i = 0; i < functions; i++) {
    out += `\n\ndef ${name}_step_${i}(payload: dict, retries: int = 3) -> dict:\n    """Run step ${i} of ${name}."""\n`;
    out += `    result = {}\n    for attempt in range(retries):\n        value = payload.get("key_${i}", ${i})\n`;
    out += `        if value > ${i === version % functions ? 50 + version : 50}:\n            log.warning("step ${i} over limit: %s", value)\n            break\n`;
    out += `        result["attempt_${i}"] = attempt\n    return result\n`;
  }
  return out;
}

function typescriptFile(name: string, functions: number, version: number): string {
  let out = `import { readFile } from 'node:fs/promises';\n\n/** Handlers of ${name}. */\nexport class ${name} {\n`;
  for (let i = 0; i < functions; i++) {
    out += `  /** Handles case ${i}. */\n  async handle${i}(input: string): Promise<number> {\n`;
    out += `    const text = await readFile(input, 'utf8');\n    const size = text.length + ${i};\n`;
    out += `    if (size > ${i === version % functions ? 900 + version : 900}) {\n      throw new Error('case ${i} too large');\n    }\n    return size;\n  }\n\n`;
  }
  return `${out}}\n`;
}

function testLog(random: () => number, turn: number): string {
  let out = '============================= test session starts ==============================\n';
  for (let i = 0; i < 170; i++) {
    const failed = random() < 0.03;
    out += `tests/test_mod_${i % 12}.py::test_case_${i} ${failed ? 'FAILED' : 'PASSED'} [${Math.floor((i / 170) * 100)}%]\n`;
  }
  return `${out}=== ${turn % 5} failed, ${170 - (turn % 5)} passed in ${(2 + random()).toFixed(2)}s ===\n`;
}

function serviceLog(random: () => number, turn: number): string {
  let out = '';
  for (let i = 0; i < 150; i++) {
    const level = random() < 0.05 ? 'ERROR' : 'INFO';
    out += `2026-03-0${1 + (turn % 9)}T12:${String(i % 60).padStart(2, '0')}:0${i % 10}.${Math.floor(random() * 1000)}Z ${level} worker-${i % 7} request ${Math.floor(random() * 1e9).toString(16)} handled in ${Math.floor(random() * 300)}ms\n`;
  }
  return out;
}

function jsonRecords(random: () => number): string {
  const rows = Array.from({ length: 85 }, (_, i) => ({
    id: i,
    name: `pod-${Math.floor(random() * 1e6).toString(36)}`,
    status: random() < 0.1 ? 'CrashLoopBackOff' : 'Running',
    restarts: Math.floor(random() * 5),
  }));
  return JSON.stringify({ items: rows }, null, 2);
}

/** 50 turns of a coding loop, ~10 KB of new context per turn. */
function trajectory(): Turn[] {
  const random = prng(7);
  let ids = 0;
  const block = (role: Block['role'], kind: Block['kind'], text: string): Block => ({
    id: `b${ids++}`,
    role,
    kind,
    text,
    trusted: role !== 'tool',
  });
  const turns: Turn[] = [
    {
      blocks: [
        block(
          'system',
          'doc',
          `You are a coding agent.\n${'Follow the repository conventions and run the tests.\n'.repeat(40)}`,
        ),
        block('user', 'chat', 'The order service drops requests under load; find and fix it.'),
      ],
      decision: { type: 'tool_call', tool: 'read', arguments: {} },
    },
  ];
  for (let t = 1; t < TURNS; t++) {
    const v = Math.floor(t / 4);
    const kinds: [Block['kind'], string][] = [
      ['source', t % 2 === 0 ? pythonFile('orders', 40, v) : typescriptFile('Orders', 36, v)],
      ['log', testLog(random, t)],
      ['log', serviceLog(random, t)],
      ['json', jsonRecords(random)],
    ];
    const [kind, text] = kinds[t % kinds.length]!;
    turns.push({
      blocks: [
        block('assistant', 'chat', `Step ${t}: looking at the ${kind} output.`),
        block('tool', kind, text),
      ],
      decision: { type: 'tool_call', tool: 'read', arguments: { step: t } },
    });
  }
  return turns;
}

const config = DistilConfig.parse({});
const keepModel = await loadKeepModel(config.keepModel);
const turns = trajectory();
const bytes = turns.flatMap((t) => t.blocks).reduce((n, b) => n + Buffer.byteLength(b.text), 0);

const t0 = performance.now();
await preloadParsers();
const parserLoad = performance.now() - t0;

/** Baseline: the per-block compressor on every new block, no session. */
async function baseline(): Promise<number> {
  const store = new MemoryRestoreStore();
  const start = performance.now();
  for (const turn of turns) {
    for (const block of turn.blocks) await compressBlock(block, { keepModel, store, tiers: config.tiers });
  }
  return performance.now() - start;
}

/** The session, with the time spent inside the compressor measured apart. */
async function session(): Promise<{
  total: number;
  compressor: number;
  encodings: Record<string, number>;
  digests: number;
  resume: number;
}> {
  const store = new MemoryRestoreStore();
  let compressor = 0;
  const compress: BlockCompressor = async (block) => {
    const start = performance.now();
    const out = await compressBlock(block, { keepModel, store, tiers: config.tiers });
    compressor += performance.now() - start;
    return out;
  };
  const s = new Session({ compress, store });
  const start = performance.now();
  for (const turn of turns) await s.addTurn(turn.blocks);
  const total = performance.now() - start;
  const encodings: Partial<Record<SentEncoding, number>> = {};
  for (const sent of s.context) encodings[sent.encoding] = (encodings[sent.encoding] ?? 0) + 1;
  // waking it: every text hashed (a sleeping session matches a request by digest), then resumed
  const wakeStart = performance.now();
  for (const sent of s.context) addressOf(sent.block.text);
  const hashed = performance.now();
  Session.resume({ compress, store }, s.history());
  const resumed = performance.now();
  return {
    total,
    compressor,
    encodings,
    digests: hashed - wakeStart,
    resume: resumed - hashed,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await baseline();
await session(); // warm-up: JIT, first parses
const base: number[] = [];
const totals: number[] = [];
const layer: number[] = [];
const digests: number[] = [];
const resumes: number[] = [];
let encodings: Record<string, number> = {};
for (let i = 0; i < RUNS; i++) {
  base.push(await baseline());
  const run = await session();
  totals.push(run.total);
  layer.push(run.total - run.compressor);
  digests.push(run.digests);
  resumes.push(run.resume);
  encodings = run.encodings;
}

const perTurn = (ms: number): string => `${(ms / TURNS).toFixed(3)} ms/turn`;
console.log(
  `session layer: ${TURNS} turns, ${(bytes / 1024).toFixed(0)} KB of context, median of ${RUNS} runs`,
);
console.log(
  `  baseline: compressBlock on every new block, no session   ${median(base).toFixed(1)} ms  (${perTurn(median(base))})`,
);
console.log(
  `  session: total                                          ${median(totals).toFixed(1)} ms  (${perTurn(median(totals))})`,
);
console.log(
  `  session layer alone (total minus its compressor calls)  ${median(layer).toFixed(1)} ms  (${perTurn(median(layer))})  target ≤ 1 ms/turn`,
);
console.log(
  `  added vs baseline (session total − baseline)            ${perTurn(median(totals) - median(base))}`,
);
console.log(
  `  one-time parser load (typescript + tree-sitter python)   ${parserLoad.toFixed(0)} ms, paid once per process`,
);
console.log(`  blocks by encoding: ${JSON.stringify(encodings)}`);
console.log(
  `  waking it from sleep (proxy): sha256 of every text ${median(digests).toFixed(1)} ms + Session.resume ` +
    `${median(resumes).toFixed(1)} ms, against ${median(totals).toFixed(1)} ms to encode it turn by turn`,
);
