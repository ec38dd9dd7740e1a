import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableTemplate, skeletonOf } from './template-mask.js';
import { MAX_MINED_LINE, mineTemplates } from './template-miner.js';

const skeleton = (line: string): string => printableTemplate(skeletonOf(line));

describe('skeletonOf', () => {
  it('masks digit-bearing words, joined numbers, and keeps words', () => {
    expect(
      skeleton(
        '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_-1608999687919862906 terminating',
      ),
    ).toBe('<*> <*> <*> INFO dfs.DataNode$PacketResponder: PacketResponder <*> for block <*> terminating');
    expect(skeleton('from 10.251.73.220:50010 at 2015-10-18 18:01:47,978 took -1 (0x1f)')).toBe(
      'from <*> at <*> <*> took <*> (<*>)',
    );
  });

  it('masks calendar words, literals, units, quoted values, names and paths', () => {
    expect(skeleton('[Sun Dec 04 04:47:44 2005] [notice] done')).toBe('[<*> <*> <*> <*> <*>] [notice] done');
    expect(skeleton('ok=true, isOverlap:false, 1.17 KB) sent, lifetime <1 sec')).toBe(
      'ok=<*>, isOverlap:<*>, <*>) sent, lifetime <<*>',
    );
    expect(
      skeleton('tag="View Lock" name=com.android.systemui open /var/www/html/ via chrome.exe to zummit.com'),
    ).toBe('tag=<*> Lock" name=<*> open <*> via <*> to <*>');
    expect(skeleton('url http://example.com/a?b=1 and uuid b9a1c2d3-bdcc-4b64-9e2d-04d64c4d94ab')).toBe(
      'url <*> and uuid <*>',
    );
  });

  it('masks mostly-variable ids whole but keeps keys and names', () => {
    expect(skeleton('R25-M0-N7-C:J02-U01 ret:1 PendingReds:0 sshd[24200]: node-246 mask=ffffffff')).toBe(
      '<*> ret:<*> PendingReds:<*> sshd[<*>]: node-<*> mask=<*>',
    );
  });

  it('treats | as a field separator and bracketed fields with spaces as one token', () => {
    expect(skeleton('20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579')).toBe(
      '<*> | Step_LSC | <*> | onStandStepChanged <*>',
    );
    expect(skeletonOf('INFO [IPC Server handler 13 on 62270] x').split(' ')).toHaveLength(3);
  });

  it('depends on digits only through where they stand (property)', () => {
    // The line memo of the miner rests on this: every digit sits in a masked word.
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z0-9 .:=/_,+\-"'[\]|()#@]{0,60}$/),
        fc.integer({ min: 0, max: 9 }),
        (line, digit) => {
          expect(skeletonOf(line.replace(/[0-9]/g, String(digit)))).toBe(skeletonOf(line));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('normalises whitespace and survives any text', () => {
    expect(skeleton('  a \t b  ')).toBe('a b');
    expect(skeleton('')).toBe('');
    expect(skeleton('Oh no! 💥 💔 💥 é1 déc')).toBe('Oh no! 💥 💔 💥 <*> déc');
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: 'binary' }), (s) => {
        expect(typeof skeletonOf(s)).toBe('string');
      }),
      { numRuns: 2_000 },
    );
  });
});

/** Grouping accuracy (Zhu et al., ICSE-SEIP 2019): a line is right when its cluster equals its event. */
function groupingAccuracy(truth: readonly number[], pred: Int32Array): number {
  const byTruth = new Map<number, number[]>();
  const byPred = new Map<number, number[]>();
  truth.forEach((t, i) => {
    byTruth.set(t, [...(byTruth.get(t) ?? []), i]);
    byPred.set(pred[i]!, [...(byPred.get(pred[i]!) ?? []), i]);
  });
  let right = 0;
  for (const members of byTruth.values()) {
    const cluster = byPred.get(pred[members[0]!]!)!;
    if (cluster.length === members.length && cluster.every((x, k) => x === members[k]))
      right += members.length;
  }
  return right / truth.length;
}

/** A generated log: events with their own constant words, variables of several shapes. */
function generatedLog(seed: number, count: number): { lines: string[]; truth: number[] } {
  let s = seed;
  const rnd = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return Math.floor(((s >>> 8) / 0x1000000) * n);
  };
  const events: ((r: typeof rnd) => string)[] = [
    (r) => `Accepted password for user${r(50)} from 10.0.${r(255)}.${r(255)} port ${1024 + r(60000)} ssh2`,
    (r) => `Connection closed by ${r(255)}.${r(255)}.1.${r(255)} [preauth]`,
    (r) => `Received block blk_${r(1e9)} of size ${r(1e8)} from /10.250.${r(255)}.${r(255)}`,
    (r) => `PacketResponder ${r(3)} for block blk_-${r(1e9)} terminating`,
    (r) => `Starting task attempt_${r(1e6)}_${r(100)} on container_${r(1e5)}`,
    (r) => `GET /api/v2/items/${r(1e4)} HTTP/1.1 status: 200 len: ${r(5000)} time: 0.${r(999)}`,
    (r) => `Cache hit ratio ${r(100)}.${r(99)}% after ${r(1000)} requests`,
    (r) => `worker-${r(16)} finished job ${r(1e6).toString(16)}${r(1e6).toString(16)} in ${r(900)} ms`,
  ];
  const lines: string[] = [];
  const truth: number[] = [];
  for (let i = 0; i < count; i++) {
    const e = rnd(events.length);
    const stamp = `2024-03-${String(1 + rnd(28)).padStart(2, '0')} ${String(rnd(24)).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')},${rnd(1000)}`;
    lines.push(`${stamp} ${['INFO', 'INFO', 'WARN'][rnd(3)]} [main] ${events[e]!(rnd)}`);
    truth.push(e);
  }
  return { lines, truth };
}

describe('mineTemplates', () => {
  it('groups a generated log by event exactly, with readable templates', () => {
    const { lines, truth } = generatedLog(7, 2000);
    const mined = mineTemplates(lines);
    expect(groupingAccuracy(truth, mined.clusterOf)).toBe(1);
    expect(mined.templates).toContain('<*> <*> <*> [main] PacketResponder <*> for block <*> terminating');
  });

  it('does not depend on line order (property)', () => {
    const { lines } = generatedLog(11, 300);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          lines.map((_, i) => i),
          { minLength: lines.length },
        ),
        (order) => {
          const a = mineTemplates(lines);
          const b = mineTemplates(order.map((i) => lines[i]!));
          // Same partition: lines together in one are together in the other.
          const pairs = (clusters: Int32Array, idx: (k: number) => number): Map<number, number> => {
            const first = new Map<number, number>();
            const rep = new Map<number, number>();
            clusters.forEach((c, k) => {
              if (!first.has(c)) first.set(c, idx(k));
              rep.set(idx(k), first.get(c)!);
            });
            return rep;
          };
          const ra = pairs(a.clusterOf, (k) => k);
          const rb = pairs(b.clusterOf, (k) => order[k]!);
          for (let i = 0; i < lines.length; i++) {
            for (const j of [0, 1, 2, 3]) expect(ra.get(i) === ra.get(j)).toBe(rb.get(i) === rb.get(j));
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('keeps apart events that differ in one word and joins variables of many values', () => {
    const lines = [
      ...['opened', 'closed', 'opened', 'closed'].map((v, i) => `session ${v} for user root by (uid=${i})`),
      ...['alice', 'bob', 'carol', 'dave', 'erin'].map((u, i) => `Invalid user ${u} from 10.0.0.${i}`),
    ];
    const { clusterOf } = mineTemplates(lines);
    expect(clusterOf[0]).toBe(clusterOf[2]);
    expect(clusterOf[0]).not.toBe(clusterOf[1]);
    expect(new Set(clusterOf.slice(4)).size).toBe(1);
  });

  it('gives lines of one skeleton one cluster, across batches, long lines and repeats (property)', () => {
    // Enough text for several scan batches, lines past the line memo's length limit, and lines that
    // repeat earlier ones but for their digits (the memo's hits).
    const { lines } = generatedLog(3, 2500);
    lines.push(`${'x'.repeat(5000)} 1`, `${'x'.repeat(5000)} 2`, 'Oh no! \u{1F4A5} \ud800 é1');
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9 .:=\-[\]|]{0,30}$/), { maxLength: 40 }), (extra) => {
        const all = [...lines, ...extra, ...extra.map((l) => l.replace(/[0-9]/g, '7'))];
        const { clusterOf, templates } = mineTemplates(all);
        const clusterOfSkeleton = new Map<string, number>();
        all.forEach((line, i) => {
          const known = clusterOfSkeleton.get(skeletonOf(line));
          if (known === undefined) clusterOfSkeleton.set(skeletonOf(line), clusterOf[i]!);
          else expect(clusterOf[i]).toBe(known);
        });
        expect(templates[clusterOf[lines.length - 1]!]).toBe('Oh no! \u{1F4A5} \ud800 <*>');
      }),
      { numRuns: 10 },
    );
  });

  it('handles empty input and empty lines', () => {
    expect(mineTemplates([])).toStrictEqual({ clusterOf: new Int32Array(0), templates: [] });
    const { clusterOf, templates } = mineTemplates(['', 'a 1', '', 'a 2']);
    expect(clusterOf[0]).toBe(clusterOf[2]);
    expect(templates[clusterOf[1]!]).toBe('a <*>');
  });

  it('gives lines too long to scan one cluster of one variable, and mines the rest as before', () => {
    const blob = 'x|'.repeat(MAX_MINED_LINE);
    const lines = ['a 1', blob, 'a 2', `${blob}y`, 'b'];
    const { clusterOf, templates } = mineTemplates(lines);
    expect(clusterOf[1]).toBe(clusterOf[3]);
    expect(templates[clusterOf[1]!]).toBe('<*>');
    const rest = mineTemplates(['a 1', 'a 2', 'b']);
    expect([0, 2, 4].map((i) => templates[clusterOf[i]!])).toStrictEqual(
      [0, 1, 2].map((i) => rest.templates[rest.clusterOf[i]!]),
    );
  });
});
