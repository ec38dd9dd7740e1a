/**
 * Causal ablation speed with the structural runner on a 50-turn coding trajectory (read → edit → re-read,
 * test runs, logs), generated here deterministically: every block removed in turn and every turn that
 * holds it replayed, then the pruned set verified jointly. Printed beside its baseline, measured in the
 * same run on the same trajectory: the same ablation with a naive structural replay that re-scans the
 * whole context text for every atom of every replay (no per-block memo, no word-set prefilter).
 * Target: under one second. When the corpus is present, the longest real trajectory is timed too.
 *
 *   pnpm bench:replay
 */
import { readdirSync } from 'node:fs';
import type { Block, Trajectory } from '@distil/contract';
import {
  ablate,
  type Replayed,
  type ReplayTurn,
  type Runner,
  runFiles,
  StructuralRunner,
  visibleIn,
} from '@distil/replay';
import { importTrajectories } from '@distil/trajectories';
import { corpusPath } from './corpus-path.js';

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

function sourceFile(name: string, version: number): string {
  let out = `"""Module ${name}."""\nimport json\nfrom pathlib import Path\n`;
  for (let i = 0; i < 30; i++) {
    out += `\n\ndef ${name}_step_${i}(payload: dict) -> dict:\n    value = payload.get("key_${i}", ${i})\n`;
    out += `    if value > ${i === version % 30 ? 50 + version : 50}:\n        raise ValueError("step ${i} over limit")\n    return {"step_${i}": value}\n`;
  }
  return out;
}

function testLog(random: () => number, turn: number): string {
  let out = '============================= test session starts ==============================\n';
  for (let i = 0; i < 120; i++) {
    out += `tests/test_mod_${i % 12}.py::test_case_${i} ${random() < 0.03 ? 'FAILED' : 'PASSED'} [${Math.floor((i / 120) * 100)}%]\n`;
  }
  return `${out}========================= ${117 - (turn % 3)} passed in 4.${turn}s =========================\n`;
}

/** The benchmark trajectory: a coding agent fixing modules one edit at a time. */
function codingTrajectory(): Trajectory {
  const random = prng(7);
  const modules = ['billing', 'ledger', 'payouts', 'invoices', 'refunds'];
  const system: Block = {
    id: 'system',
    role: 'system',
    kind: 'chat',
    trusted: true,
    text: 'You are a coding agent. Tools: read_file(path), edit_file(path, old, new), run_tests(path), grep(pattern).',
  };
  const task: Block = {
    id: 'task',
    role: 'user',
    kind: 'chat',
    trusted: true,
    text: 'Fix the over-limit errors in src/.',
  };
  const turns: Trajectory['turns'] = [];
  let blocks: Block[] = [system, task];
  for (let t = 0; t < TURNS; t++) {
    const name = modules[t % modules.length]!;
    const path = `src/${name}.py`;
    const step = t % 4;
    const decision =
      step === 0
        ? { type: 'tool_call' as const, tool: 'read_file', arguments: { path } }
        : step === 1
          ? {
              type: 'tool_call' as const,
              tool: 'edit_file',
              arguments: { path, old: `${name}_step_${t % 30}`, new: `${name}_step_${t % 30}_fixed` },
            }
          : step === 2
            ? {
                type: 'tool_call' as const,
                tool: 'run_tests',
                arguments: { path: `tests/test_mod_${t % 12}.py` },
              }
            : {
                type: 'tool_call' as const,
                tool: 'grep',
                arguments: { pattern: `${name}_step_${(t + 1) % 30}` },
              };
    turns.push({ blocks, decision });
    const result: Block =
      step === 2
        ? {
            id: `obs-${t}`,
            role: 'tool',
            kind: 'log',
            trusted: false,
            tool: 'run_tests',
            text: testLog(random, t),
          }
        : {
            id: `obs-${t}`,
            role: 'tool',
            kind: 'source',
            trusted: false,
            tool: decision.tool,
            text: `${path}\n${sourceFile(name, t)}`,
          };
    const note: Block = {
      id: `note-${t}`,
      role: 'assistant',
      kind: 'chat',
      trusted: false,
      text: `Calling ${decision.tool} on ${path}.`,
    };
    blocks = [note, result];
  }
  turns.push({
    blocks,
    decision: { type: 'final', text: `Fixed ${modules.join(', ')} (src/billing.py, src/ledger.py).` },
  });
  return { format: 'distil.trajectory/v1', id: 'bench-coding-50', turns, outcome: 'pass' };
}

/**
 * The baseline: the structural runner's definition applied naively — the atoms taken from a fresh
 * structural runner, then every atom searched in the concatenated text of the whole context, every replay.
 */
class NaiveStructuralRunner implements Runner {
  readonly id = 'structural (naive)';
  readonly concurrency = 1;
  private readonly atoms = new StructuralRunner();

  async decide(context: readonly Block[], turn: ReplayTurn): Promise<Replayed> {
    const texts = context.map((b) => b.text);
    const missing = this.atoms.atomsOf(turn).filter((atom) => !texts.some((text) => visibleIn(text, atom)));
    return missing.length === 0
      ? { kind: 'decision', decision: turn.recorded }
      : { kind: 'unreproducible', missing };
  }
}

async function time(
  trajectory: Trajectory,
  runner: () => Runner,
): Promise<{ ms: number; replays: number; free: number }> {
  const times: number[] = [];
  let replays = 0;
  let free = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const report = await ablate(trajectory, { runner: runner() });
    times.push(performance.now() - started);
    replays = report.replays;
    free = report.freeTokens;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, replays, free };
}

async function measure(label: string, trajectory: Trajectory): Promise<void> {
  const blocks = trajectory.turns.reduce((s, t) => s + t.blocks.length, 0);
  const bytes = trajectory.turns.reduce((s, t) => s + t.blocks.reduce((b, x) => b + x.text.length, 0), 0);
  const fast = await time(trajectory, () => new StructuralRunner());
  const naive = await time(trajectory, () => new NaiveStructuralRunner());
  if (fast.free !== naive.free)
    throw new Error(`the two runners disagree on ${label}: ${fast.free} vs ${naive.free} free tokens`);
  process.stdout.write(
    `${label}: ${trajectory.turns.length} turns, ${blocks} blocks, ${(bytes / 1000).toFixed(0)} KB, ${fast.replays} replays\n` +
      `  structural runner        ${fast.ms.toFixed(0).padStart(6)} ms  (median of ${RUNS}; target < 1000 ms: ${fast.ms < 1000 ? 'met' : 'MISSED'})\n` +
      `  baseline, naive replay   ${naive.ms.toFixed(0).padStart(6)} ms  (same verdicts; naive / memoised = ${(naive.ms / fast.ms).toFixed(2)})\n`,
  );
}

await measure('generated coding trajectory', codingTrajectory());

const corpus = corpusPath();
if (corpus === null) {
  process.stdout.write('corpus not found (set DISTIL_CORPUS): the real-trajectory measurement is skipped\n');
} else {
  const folder = `${corpus}/trajectories`;
  const all = readdirSync(folder).length > 0 ? runFiles(folder).flatMap((f) => importTrajectories(f)) : [];
  const longest = all.sort((a, b) => b.turns.length - a.turns.length)[0];
  if (longest) await measure(`longest corpus trajectory (${longest.id})`, longest);
}
