import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copiedShape,
  decisionAtoms,
  replayTurns,
  StructuralRunner,
  sameReplay,
  VisibilityIndex,
  visibleIn,
} from '../src/index.js';
import { block, call, incident, trajectory, trajectoryArb } from './fixtures.js';

describe('visibleIn', () => {
  it('finds whole tokens only', () => {
    expect(visibleIn('pod pg-ledger-0 restarted', 'pg-ledger-0')).toBe(true);
    expect(visibleIn('pg-ledger-0.pg-ledger.svc:5432', 'pg-ledger-0')).toBe(true);
    expect(visibleIn('pvc data-pg-ledger-01', 'pg-ledger-0')).toBe(false);
    expect(visibleIn('data-pg-ledger-0', 'pg-ledger-0')).toBe(false);
    expect(visibleIn('took 120 ms', '12')).toBe(false);
    expect(visibleIn('python 3.12 ok', '12')).toBe(false);
    expect(visibleIn('limit 12.', '12')).toBe(true);
    expect(visibleIn('du /var/lib/pg/data/pg_wal', '/var/lib/pg/data')).toBe(true);
    expect(visibleIn('see /var/library', '/var/lib')).toBe(false);
  });
});

describe('decision atoms', () => {
  const index = new VisibilityIndex();
  const context = [
    block('task', 'Repository at /workspace/repo__1.0 fails with "No space left on device".', {
      role: 'user',
      kind: 'chat',
    }),
    block('ls', 'README.md\nsrc\ntests'),
  ];

  it('keeps copied shapes that are visible, and drops plain words and invented tokens', () => {
    expect(copiedShape('verify')).toBe(false);
    expect(copiedShape('Check')).toBe(false);
    expect(copiedShape('12')).toBe(false);
    expect(copiedShape('403')).toBe(true);
    expect(copiedShape('pg_wal')).toBe(true);
    expect(copiedShape('getUser')).toBe(true);
    const atoms = decisionAtoms(
      { type: 'final', text: 'verify README.md, then retry: "No space left on device" at /tmp/new_file.txt' },
      context,
      index,
    );
    expect(atoms).toEqual(expect.arrayContaining(['README.md', 'No space left on device']));
    expect(atoms).not.toContain('verify');
    expect(atoms).not.toContain('/tmp/new_file.txt');
  });

  it('splits a composed path into the prefix the agent read and the names it listed', () => {
    const atoms = decisionAtoms(call('ls', { path: '/workspace/repo__1.0/src' }), context, index);
    expect(atoms).toEqual(expect.arrayContaining(['/workspace/repo__1.0', 'src']));
    expect(atoms).not.toContain('/workspace/repo__1.0/src');
  });
});

describe('the structural runner', () => {
  const run = incident();
  const turns = replayTurns(run);

  it('reproduces every recorded decision from its full context', async () => {
    const runner = new StructuralRunner();
    for (const turn of turns) {
      expect(await runner.decide(turn.reference, turn)).toEqual({
        kind: 'decision',
        decision: turn.recorded,
      });
    }
  });

  it('is not trivially true: losing the only block that showed a copied token breaks the replay', async () => {
    const runner = new StructuralRunner();
    const turn = turns[1]!; // logs ledger-writer-7f9c-x2x, a name only obs-0 shows
    const replayed = await runner.decide(
      turn.reference.filter((b) => b.id !== 'obs-0'),
      turn,
    );
    expect(replayed).toEqual({ kind: 'unreproducible', missing: ['ledger-writer-7f9c-x2x'] });
    // Folding the line away has the same effect as removing the block.
    const folded = turn.reference.map((b) =>
      b.id === 'obs-0' ? { ...b, text: 'NAME READY STATUS\n<< +2 lines, handle=dh_000000000000 >>' } : b,
    );
    expect((await runner.decide(folded, turn)).kind).toBe('unreproducible');
    // An unrelated context of the same size reproduces nothing that was copied.
    const unrelated = turn.reference.map((b) => ({ ...b, text: 'lorem ipsum dolor sit amet' }));
    expect((await runner.decide(unrelated, turn)).kind).toBe('unreproducible');
  });

  it('never agrees on an unreproducible replay', () => {
    const missing = { kind: 'unreproducible', missing: ['x'] } as const;
    expect(sameReplay(missing, missing)).toBe(false);
  });

  it('property: the full context always reproduces the recorded decision', async () => {
    await fc.assert(
      fc.asyncProperty(trajectoryArb, async (t) => {
        const runner = new StructuralRunner();
        for (const turn of replayTurns(t)) {
          const replayed = await runner.decide(turn.reference, turn);
          if (replayed.kind !== 'decision' || replayed.decision !== turn.recorded) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('property: adding blocks to a context never loses a reproduction (monotone in the context)', async () => {
    await fc.assert(
      fc.asyncProperty(
        trajectoryArb,
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        async (t, keep) => {
          const runner = new StructuralRunner();
          for (const turn of replayTurns(t)) {
            const subset = turn.reference.filter((_, i) => keep[i % keep.length]);
            if ((await runner.decide(subset, turn)).kind === 'decision') {
              const superset = [...subset, ...turn.reference.filter((b) => !subset.includes(b))];
              if ((await runner.decide(superset, turn)).kind !== 'decision') return false;
            }
          }
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts the tool name as copied from the system prompt that lists it', async () => {
    const system = block('system', 'Tools: frobnicate(target).', { role: 'system', kind: 'chat' });
    const t = trajectory('tools', [[[system, block('o', 'nothing')], call('frobnicate', { target: 'x' })]]);
    const [turn] = replayTurns(t);
    const runner = new StructuralRunner();
    expect(runner.atomsOf(turn!)).toEqual(['frobnicate']);
    expect((await runner.decide([block('o', 'nothing')], turn!)).kind).toBe('unreproducible');
  });
});
