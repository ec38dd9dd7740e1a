import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SalienceKeepModel } from '@distil/codec';
import { type Block, TierConfig } from '@distil/contract';
import { compressBlock, findStubs, MemoryRestoreStore } from '@distil/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  digestedSignature,
  ExpandFlywheel,
  expandStatsPath,
  LearnedPolicy,
  learnFromRuns,
  policyCompressor,
  type RunEvidence,
  readGuidelineStats,
  signatureOf,
  sizeBucket,
} from '../src/index.js';
import { block } from './fixtures.js';

const home = (): string => mkdtempSync(join(tmpdir(), 'distil-learn-'));
const evidence = (n: number, digested: string[], regressed: boolean): RunEvidence => ({
  key: n.toString(16).padStart(64, '0'),
  digested,
  regressed,
});

describe('content-free signatures', () => {
  it('are content class × size bucket', () => {
    expect([
      sizeBucket(0),
      sizeBucket(39),
      sizeBucket(40),
      sizeBucket(199),
      sizeBucket(200),
      sizeBucket(1000),
    ]).toEqual(['s', 's', 'm', 'm', 'l', 'xl']);
    expect(
      signatureOf(block('x', Array.from({ length: 300 }, (_, i) => `row ${i}`).join('\n'), { kind: 'json' })),
    ).toBe('json:l');
  });

  it('of a digested block equal the signature of its original', async () => {
    const tiers = TierConfig.parse({});
    const original = block(
      'log',
      Array.from({ length: 250 }, (_, i) => `INFO worker ${i} polled the queue, nothing to do`).join('\n'),
      {
        kind: 'log',
      },
    );
    const sent = await compressBlock(original, {
      keepModel: new SalienceKeepModel(),
      store: new MemoryRestoreStore(),
      tiers,
    });
    expect(findStubs(sent.text).length).toBeGreaterThan(0);
    expect(digestedSignature({ kind: 'log', text: sent.text })).toBe(signatureOf(original));
    expect(digestedSignature(original)).toBeNull();
  });
});

describe('the expand flywheel', () => {
  it('protects a signature once its expand rate crosses the threshold, and persists it', () => {
    const dir = home();
    const flywheel = ExpandFlywheel.open(dir);
    flywheel.recordDigest('json:l', 8);
    flywheel.recordExpand('json:l', 2);
    expect(flywheel.isProtected('json:l')).toBe(false); // fewer than 3 expands
    flywheel.recordExpand('json:l');
    expect(flywheel.isProtected('json:l')).toBe(true); // 3 of 8 = 37.5% ≥ 25%
    flywheel.recordDigest('log:xl', 40);
    flywheel.recordExpand('log:xl', 3);
    expect(flywheel.isProtected('log:xl')).toBe(false); // 7.5%
    flywheel.flush();
    const reopened = ExpandFlywheel.open(dir);
    expect(reopened.isProtected('json:l')).toBe(true);
    expect(reopened.counts('log:xl')).toEqual({ digests: 40, expands: 3 });
    expect(LearnedPolicy.load(dir).protectedSignatures()).toEqual(['json:l']);
    // Written atomically: no temporary or lock file is left behind, and the file is owner-only JSON.
    expect(readdirSync(join(dir, 'learn'))).toEqual(['expand-stats.json']);
    expect(JSON.parse(readFileSync(expandStatsPath(dir), 'utf8')).version).toBe(1);
  });

  it('attributes expands to the signature of the digest that issued the handle', () => {
    const flywheel = ExpandFlywheel.open(home());
    const original = block('j', Array.from({ length: 60 }, (_, i) => `{"id": ${i}}`).join('\n'), {
      kind: 'json',
    });
    flywheel.trackDigest(original, ['dh_aaaaaaaaaaaa', 'dh_bbbbbbbbbbbb']);
    expect(flywheel.recordExpandOf('dh_bbbbbbbbbbbb')).toBe(true);
    expect(flywheel.recordExpandOf('dh_cccccccccccc')).toBe(false);
    expect(flywheel.counts('json:m')).toEqual({ digests: 1, expands: 1 });
  });

  it('merges two processes writing the same file without losing counts', () => {
    const dir = home();
    const a = ExpandFlywheel.open(dir);
    const b = ExpandFlywheel.open(dir);
    a.recordDigest('doc:m', 5);
    b.recordDigest('doc:m', 7);
    b.recordExpand('doc:m', 1);
    a.flush();
    b.flush();
    expect(ExpandFlywheel.open(dir).counts('doc:m')).toEqual({ digests: 12, expands: 1 });
  });

  it('refuses signatures that could carry content, and files that are not its own', () => {
    const dir = home();
    expect(() => ExpandFlywheel.open(dir).recordDigest('password=hunter2')).toThrow('signature');
    writeFileSync(join(dir, 'x.json'), '{}');
    const broken = home();
    ExpandFlywheel.open(broken).flush();
    writeFileSync(expandStatsPath(broken), '{"version": 2}');
    expect(() => ExpandFlywheel.open(broken)).toThrow('does not hold learned statistics');
  });

  it('property: any sequence of events only ever grows the protected set, across flushes', () => {
    const signatures = ['json:m', 'json:l', 'log:xl', 'source:l'];
    const eventArb = fc.record({
      signature: fc.constantFrom(...signatures),
      kind: fc.constantFrom('digest', 'expand', 'flush'),
      n: fc.integer({ min: 1, max: 6 }),
    });
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        const dir = home();
        let flywheel = ExpandFlywheel.open(dir);
        let protectedBefore = new Set<string>();
        for (const e of events) {
          if (e.kind === 'digest') flywheel.recordDigest(e.signature, e.n);
          else if (e.kind === 'expand') flywheel.recordExpand(e.signature, e.n);
          else {
            flywheel.flush();
            flywheel = ExpandFlywheel.open(dir);
          }
          const now = new Set(signatures.filter((s) => flywheel.isProtected(s)));
          if ([...protectedBefore].some((s) => !now.has(s))) return false;
          protectedBefore = now;
        }
        return true;
      }),
      { numRuns: 60 },
    );
  });

  it('flushAsync: counts recorded while it writes wait for the next write; none is lost or counted twice', async () => {
    const dir = home();
    const flywheel = ExpandFlywheel.open(dir);
    flywheel.recordDigest('log:l', 4);
    const writing = flywheel.flushAsync();
    flywheel.recordExpand('log:l', 3); // lands while the first write is under way
    expect(flywheel.counts('log:l')).toEqual({ digests: 4, expands: 3 });
    expect(flywheel.isProtected('log:l')).toBe(true);
    await writing;
    expect(flywheel.dirty).toBe(true);
    expect(flywheel.counts('log:l')).toEqual({ digests: 4, expands: 3 });
    await flywheel.flushAsync();
    expect(flywheel.dirty).toBe(false);
    const reopened = ExpandFlywheel.open(dir);
    expect(reopened.counts('log:l')).toEqual({ digests: 4, expands: 3 });
    expect(reopened.isProtected('log:l')).toBe(true);
    expect(readdirSync(join(dir, 'learn'))).toEqual(['expand-stats.json']);
  });

  it('flushAsync: a write that fails keeps its counts for the next one', async () => {
    const dir = home();
    const flywheel = ExpandFlywheel.open(dir);
    flywheel.recordDigest('json:m', 2);
    flywheel.recordExpand('json:m', 1);
    // the folder the statistics go in is a file: the write cannot happen
    writeFileSync(join(dir, 'learn'), 'not a folder');
    await expect(flywheel.flushAsync()).rejects.toThrow();
    expect(flywheel.dirty).toBe(true);
    expect(flywheel.counts('json:m')).toEqual({ digests: 2, expands: 1 });
    rmSync(join(dir, 'learn'));
    await flywheel.flushAsync();
    expect(ExpandFlywheel.open(dir).counts('json:m')).toEqual({ digests: 2, expands: 1 });
  });

  it('flushAsync merges with a process writing synchronously, under the same lock', async () => {
    const dir = home();
    const server = ExpandFlywheel.open(dir);
    const offline = ExpandFlywheel.open(dir);
    server.recordDigest('diff:m', 3);
    offline.recordDigest('diff:m', 5);
    offline.flush();
    await server.flushAsync();
    expect(ExpandFlywheel.open(dir).counts('diff:m')).toEqual({ digests: 8, expands: 0 });
    // the server's flush took in what the other process wrote
    expect(server.counts('diff:m')).toEqual({ digests: 8, expands: 0 });
  });
});

describe('the guideline flywheel', () => {
  it('suspects signatures digested in regressed runs and protects those that keep co-occurring', () => {
    const dir = home();
    const first = learnFromRuns([evidence(1, ['json:l', 'log:m'], true), evidence(2, ['log:m'], false)], dir);
    expect(first.newlyProtected).toEqual([]);
    const policy = LearnedPolicy.load(dir);
    expect(policy.entries().map((e) => [e.signature, e.suspect])).toEqual([
      ['json:l', true],
      ['log:m', true],
    ]);
    // The same pair fed again is not counted twice.
    expect(learnFromRuns([evidence(1, ['json:l', 'log:m'], true)], dir).repeated).toBe(1);
    const second = learnFromRuns(
      [evidence(3, ['json:l'], true), evidence(4, ['log:m'], false), evidence(5, ['log:m'], false)],
      dir,
    );
    expect(second.newlyProtected).toEqual(['json:l']);
    expect(readGuidelineStats(dir).signatures['log:m']).toMatchObject({ runs: 4, regressions: 1 });
    expect(LearnedPolicy.load(dir).protectedSignatures()).toEqual(['json:l']);
    // log:m regressed once in four runs: still a suspect, not protected.
    expect(
      LearnedPolicy.load(dir)
        .entries()
        .find((e) => e.signature === 'log:m'),
    ).toMatchObject({ suspect: true, protectedBy: [] });
  });

  it('property: learning from any runs only ever grows the protected set', () => {
    const runArb = fc.record({
      digested: fc.subarray(['json:m', 'json:l', 'log:xl', 'tool_output:l']),
      regressed: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fc.array(runArb, { maxLength: 5 }), { maxLength: 6 }), (rounds) => {
        const dir = home();
        let before: string[] = [];
        let n = 0;
        for (const round of rounds) {
          learnFromRuns(
            round.map((r) => evidence(n++, r.digested, r.regressed)),
            dir,
          );
          const now = LearnedPolicy.load(dir).protectedSignatures();
          if (before.some((s) => !now.includes(s))) return false;
          before = now;
        }
        return true;
      }),
      { numRuns: 60 },
    );
  });
});

describe('the learned policy', () => {
  const tiers = TierConfig.parse({ minLines: 8, headLines: 1, tailLines: 1 });
  const lines = (text: string): Set<string> =>
    new Set(text.split('\n').filter((l) => findStubs(l).length === 0));

  it('compresses protected signatures lossless only', async () => {
    const dir = home();
    learnFromRuns([evidence(1, ['log:m'], true), evidence(2, ['log:m'], true)], dir);
    const policy = LearnedPolicy.load(dir);
    const log = block('l', Array.from({ length: 80 }, (_, i) => `DEBUG tick ${i} idle`).join('\n'), {
      kind: 'log',
    });
    expect(policy.depthFor(log, 'digest')).toBe('lossless');
    expect(policy.depthFor({ ...log, kind: 'json' }, 'digest')).toBe('digest');
    const store = new MemoryRestoreStore();
    const compress = policyCompressor({ keepModel: new SalienceKeepModel(), store, tiers }, policy);
    expect((await compress(log)).text).toBe(log.text);
  });

  it('property: under any learned policy, every line the plain compressor keeps is still kept', async () => {
    const kinds = ['log', 'json', 'tool_output'] as const;
    const blockArb = fc.record({
      kind: fc.constantFrom(...kinds),
      lines: fc.array(
        fc.oneof(
          fc.constantFrom(
            'DEBUG poll idle',
            'INFO ok',
            'ERROR disk full on /dev/sda1',
            'retrying in 5s',
            '{"id": 7}',
          ),
          fc.integer({ min: 0, max: 999 }).map((n) => `step ${n} finished`),
        ),
        { minLength: 1, maxLength: 60 },
      ),
    });
    const protectedArb = fc.subarray(['log:s', 'log:m', 'json:m', 'tool_output:m', 'json:s']);
    await fc.assert(
      fc.asyncProperty(blockArb, protectedArb, async (b, protectedSignatures) => {
        const original: Block = block('b', b.lines.join('\n'), { kind: b.kind });
        const options = { keepModel: new SalienceKeepModel(), store: new MemoryRestoreStore(), tiers };
        const plain = await compressBlock(original, options);
        const learned = await policyCompressor(options, {
          isProtected: (s) => protectedSignatures.includes(s),
        })(original);
        const kept = lines(learned.text);
        // Lines of the original, that is: the lossless tier's summaries ("[repeated 7×] …") and trailers
        // are not lines the tool printed, and a protected block sent whole has none of them.
        const printed = new Set(b.lines);
        return [...lines(plain.text)].filter((l) => printed.has(l)).every((l) => kept.has(l));
      }),
      { numRuns: 150 },
    );
  });
});
