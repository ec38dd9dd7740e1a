import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ablate, replayTurns, StructuralRunner, sameReplay } from '../src/index.js';
import { block, call, incident, trajectory, trajectoryArb } from './fixtures.js';

describe('causal ablation', () => {
  it("finds the runbooks inert and the observations load-bearing (the spec's example)", async () => {
    const progress: [number, number][] = [];
    const report = await ablate(incident(), {
      runner: new StructuralRunner(),
      onProgress: (done, total) => progress.push([done, total]),
    });
    const verdict = Object.fromEntries(report.blocks.map((b) => [b.id, b.droppable ? 'prune' : 'keep']));
    expect(verdict).toEqual({
      system: 'keep', // names the tools the decisions call
      'doc-0': 'prune',
      'doc-1': 'prune',
      'obs-0': 'keep',
      'obs-1': 'keep',
      'obs-2': 'keep',
    });
    const docs = report.blocks.filter((b) => b.id.startsWith('doc-'));
    expect(docs.map((b) => b.occurrences)).toEqual([4, 4]);
    expect(report.freeTokens).toBe(docs[0]!.tokens + docs[1]!.tokens);
    expect(report.freeBlocks).toBe(2);
    expect(report.blocks.find((b) => b.id === 'obs-0')!.lost).toEqual(['ledger-writer-7f9c-x2x']);
    const [done, total] = progress[progress.length - 1]!;
    expect(done).toBe(total);
  });

  it('does not offer two blocks that repeat one fact as both droppable', async () => {
    const t = trajectory('twice', [
      [
        [block('a', 'pod svc-9-pod crashed'), block('b', 'again: svc-9-pod crashed')],
        call('logs', { pod: 'svc-9-pod' }),
      ],
    ]);
    const report = await ablate(t, { runner: new StructuralRunner() });
    expect(report.blocks.map((b) => b.changedDecision)).toEqual([false, false]); // each inert alone
    expect(report.blocks.filter((b) => b.droppable)).toHaveLength(1); // but only one can go
    expect(report.freeBlocks).toBe(1);
  });

  it("never rates the operator's own text droppable, and says the structural verdict is not certified", async () => {
    const t = trajectory('task', [
      [
        [
          block('task', 'The checkout service is down: find out why.', {
            role: 'user',
            kind: 'chat',
            trusted: true,
          }),
          block('obs', 'pod svc-3-pod crashed'),
        ],
        call('logs', { pod: 'svc-3-pod' }),
      ],
    ]);
    const report = await ablate(t, { runner: new StructuralRunner() });
    // No token of the task is copied into the decision: only its trust keeps it.
    expect(report.blocks.find((b) => b.id === 'task')).toMatchObject({ trusted: true, droppable: false });
    expect(report.freeBlocks).toBe(0);
    expect(report.replays).toBe(2); // the reference and obs removed: the task is never ablated
    expect(report).toMatchObject({ runner: 'structural', basis: 'no copied token lost', certified: false });
  });

  it('counts blocks after the last decision as never having changed one', async () => {
    const t = trajectory('tail', [
      [[block('a', 'svc-1-pod')], call('logs', { pod: 'svc-1-pod' })],
      [[block('late', 'svc-2-pod')], null],
    ]);
    const report = await ablate(t, { runner: new StructuralRunner() });
    expect(report.blocks.find((b) => b.id === 'late')).toMatchObject({ occurrences: 0, droppable: true });
  });

  it('property: dropping every droppable block at once changes no decision', async () => {
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const runner = new StructuralRunner();
        const report = await ablate(t, { runner });
        const dropped = new Set(report.blocks.filter((b) => b.droppable).map((b) => b.id));
        for (const turn of replayTurns(t)) {
          const full = await runner.decide(turn.reference, turn);
          const pruned = await runner.decide(
            turn.reference.filter((b) => !dropped.has(b.id)),
            turn,
          );
          if (!sameReplay(full, pruned)) return false;
        }
        return report.blocks.every((b) => !(b.droppable && b.changedDecision));
      }),
      { numRuns: 150 },
    );
  });

  it('property: exhaustive ablation lists every changed turn, the default stops at the first', async () => {
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const quick = await ablate(t, { runner: new StructuralRunner() });
        const full = await ablate(t, { runner: new StructuralRunner(), exhaustive: true });
        return quick.blocks.every((b, i) => {
          const all = full.blocks[i]!.changedTurns;
          return b.changedDecision === all.length > 0 && (all.length === 0 || b.changedTurns[0] === all[0]);
        });
      }),
      { numRuns: 100 },
    );
  });
});
