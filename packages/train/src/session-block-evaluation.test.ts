import type { ContentKind, KeepModel } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { evaluateSessionBlocks, fitSessionLogistic } from './session-block-evaluation.js';
import type { TraceDocument } from './trace-corpus.js';

/** A listing where the agent went on to name the one file its task named: the rest of the lines went unused. */
function listing(group: string, wanted: number): TraceDocument {
  const lines = Array.from({ length: 30 }, (_, i) => `src/module_${group}_${i}.ts  ${100 + i} lines`);
  return {
    source: `${group}.jsonl#call`,
    kind: 'tool_output' as ContentKind,
    lines,
    decision: Uint8Array.from(lines, (_, i) => (i === wanted ? 1 : 0)),
    decisionOrigin: 'session',
    group,
    context: { task: `fix src/module_${group}_${wanted}.ts`, input: 'ls src', recent: [] },
  };
}

/** Scores a line 1 when it is the needed one of its block: an oracle. */
const oracle = (docs: readonly TraceDocument[]): KeepModel => ({
  id: 'oracle',
  scoreLines: async (lines) => {
    const doc = docs.find((d) => d.lines === lines)!;
    return Float32Array.from(doc.decision!);
  },
});

describe('evaluateSessionBlocks', () => {
  const docs = Array.from({ length: 6 }, (_, g) => listing(`s${g}`, (g * 7) % 30));

  it('gives an oracle the ceiling and a constant model nothing at 99% recall', async () => {
    const constant: KeepModel = {
      id: 'c',
      scoreLines: async (lines) => new Float32Array(lines.length).fill(0.5),
    };
    const [best, flat] = await evaluateSessionBlocks(
      [
        { name: 'oracle', model: oracle(docs) },
        { name: 'constant', model: constant },
      ],
      docs,
    );
    expect(best!.removedAt99).toBeCloseTo(best!.ceiling, 10);
    expect(best!.rocAuc).toBe(1);
    expect(flat!.removedAt99).toBe(0);
    expect(best!.lines).toBe(180);
    expect(best!.neededShare).toBeCloseTo(6 / 180, 10);
  });

  it('fits the block logistic on sessions and scores held-out ones with their context', async () => {
    const model = fitSessionLogistic(docs.slice(0, 4));
    expect(model).not.toBeNull();
    const [row] = await evaluateSessionBlocks([{ name: 'logistic', model: model! }], docs.slice(4));
    // the needed line is the one the task names: the context feature finds it in sessions it never saw
    expect(row!.rocAuc).toBeGreaterThan(0.9);
    expect(row!.removedAt99).toBeGreaterThan(0.5);
  });

  it('has nothing to fit without labelled session documents', () => {
    expect(fitSessionLogistic([{ source: 'a.log', kind: 'log', lines: ['x'] }])).toBeNull();
  });
});
