import { SalienceKeepModel } from '@distil/codec';
import { addressOf, type Block, TierConfig } from '@distil/contract';
import { MemoryRestoreStore, pipelineCompressor, restoreSentBlock } from '@distil/core';
import { describe, expect, it } from 'vitest';
import { SessionBranch } from './session-branch.js';

const store = new MemoryRestoreStore();
const options = {
  store,
  compress: pipelineCompressor({ keepModel: new SalienceKeepModel(), store, tiers: TierConfig.parse({}) }),
};

let ids = 0;
const block = (text: string): Block => ({ id: `b${ids++}`, role: 'tool', kind: 'log', text, trusted: false });

/** A log of `n` lines, `changed` (if given) rewritten: a re-read of it is a diff against the first. */
function log(n: number, seed: number, changed?: number): string {
  return Array.from({ length: n }, (_, i) =>
    i === changed
      ? 'ERROR this line changed'
      : `2026-01-01T00:00:00Z job ${seed} step ${i}: module_${i % 13} ok`,
  ).join('\n');
}

const digests = (texts: readonly string[]) => (i: number) => addressOf(texts[i]!).digest;
const sentBytes = (branch: SessionBranch) => branch.context.map((s) => [s.text, s.encoding]);

async function branchOf(turns: readonly (readonly string[])[]): Promise<SessionBranch> {
  const branch = new SessionBranch(options);
  for (const turn of turns) await branch.add(turn.map(block));
  return branch;
}

describe('SessionBranch asleep', () => {
  const texts = [log(80, 1), log(60, 2), log(80, 1, 40)];

  it('matches resent texts by digest, and wakes with the bytes it sent', async () => {
    const branch = await branchOf([[texts[0]!], [texts[1]!, texts[2]!]]);
    const before = sentBytes(branch);
    expect(before.map(([, encoding]) => encoding)).toEqual(['compressed', 'compressed', 'diff']);
    branch.sleep();
    expect(branch.awake).toBe(false);
    expect(() => branch.context).toThrow(/asleep/);
    expect(branch.matchLength(texts, digests(texts))).toBe(3);
    const edited = [texts[0]!, log(60, 3), texts[2]!];
    expect(branch.matchLength(edited, digests(edited))).toBe(1);

    branch.wake([...texts, log(80, 1, 41)]);
    expect(branch.awake).toBe(true);
    expect(sentBytes(branch)).toEqual(before);
    // the woken session compares new blocks with the texts it was woken with
    await branch.add([block(log(80, 1, 41)), block(texts[1]!)]);
    const [diff, reference] = branch.context.slice(3);
    expect(diff!.encoding).toBe('diff');
    expect(reference!.encoding).toBe('reference');
    expect(await restoreSentBlock(diff!, store)).toBe(log(80, 1, 41));
  });

  it('forks a prefix with the bytes it was sent with, expansions still sticky', async () => {
    const branch = await branchOf([[texts[0]!], [texts[1]!], [texts[2]!]]);
    const before = sentBytes(branch);
    const folded = branch.context[1]!.handles[0]!;
    branch.sleep();
    branch.markExpanded(folded);
    const rewound = [texts[0]!, texts[1]!];
    const fork = branch.fork(branch.matchLength(rewound, digests(rewound)), rewound);
    expect(branch.awake).toBe(false);
    expect(sentBytes(fork)).toEqual(before.slice(0, 2));
    // the expanded block, sent again, goes out whole
    await fork.add([block(texts[1]!)]);
    expect(fork.context[2]!.encoding).toBe('full');
  });

  it('wakes with a lone surrogate in what it sent, unchanged', async () => {
    const odd = ['a lone \ud800 surrogate', `${log(40, 5)}\n\udfff`];
    const branch = await branchOf([odd]);
    const before = sentBytes(branch);
    expect(before[0]![0]).toBe(odd[0]);
    branch.sleep();
    branch.wake(odd);
    expect(sentBytes(branch)).toEqual(before);
  });

  it('stays awake once a chained request continued it (its texts would never come back)', async () => {
    const branch = await branchOf([[texts[0]!]]);
    await branch.add([block(texts[1]!)], false);
    branch.sleep();
    expect(branch.awake).toBe(true);
  });
});
