import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  digestedSignatures,
  nonInferiorityTest,
  normalCdf,
  normalQuantile,
  pairedOutcomes,
  readMatchedRuns,
  runEvidence,
  tangoInterval,
  tangoScore,
} from '../src/index.js';
import { block, call, trajectory } from './fixtures.js';

describe('the normal distribution', () => {
  it('matches tabulated quantiles and probabilities', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 6);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
  });
});

describe("Tango's score interval for paired proportions", () => {
  it('reproduces a published interval (Cavo et al. 2012, in Fagerland, Lydersen & Laake 2017, ch. 8)', () => {
    // Paired table [[59, 6], [16, 80]]: estimate −0.0621, 95% CI −0.1240 to −0.0054.
    const ci = tangoInterval({ b: 6, c: 16, n: 161 }, 0.95);
    expect(ci.estimate).toBeCloseTo(-0.0621, 4);
    expect(ci.lower).toBeCloseTo(-0.124, 4);
    expect(ci.upper).toBeCloseTo(-0.0054, 4);
  });

  it('has a closed form with no discordant pairs: bounds ±z² / (n + z²)', () => {
    // With b = c = 0 and Δ₀ = −m: q̂ = m, the variance per pair is 2m − m(1 + m) = m(1 − m), and
    // Z = nm / √(n·m(1 − m)) = √(n·m / (1 − m)); Z = z at m = z² / (n + z²).
    // For n = 20 and z = 1.644854 (90% two-sided): 2.705543 / 22.705543 = 0.119158.
    const ci = tangoInterval({ b: 0, c: 0, n: 20 }, 0.9);
    expect(ci.lower).toBeCloseTo(-0.119158, 5);
    expect(ci.upper).toBeCloseTo(0.119158, 5);
    expect(tangoScore({ b: 0, c: 0, n: 20 }, 0)).toBe(0);
  });

  it('gives the hand-computed score at one point', () => {
    // b = 3, c = 5, n = 40, Δ₀ = −0.1: A = 80, B = −8 + 82·(−0.1) = −16.2, C = −5·(−0.1)·1.1 = 0.55;
    // q̂ = (√(262.44 − 176) + 16.2) / 160 = 0.1593582; variance = 40·(0.3187164 − 0.11) = 8.348656;
    // Z = (3 − 5 + 4) / √8.348656 = 0.692184.
    expect(tangoScore({ b: 3, c: 5, n: 40 }, -0.1)).toBeCloseTo(0.692184, 5);
  });

  it('rejects impossible tables', () => {
    expect(() => tangoInterval({ b: 3, c: 5, n: 7 }, 0.9)).toThrow(RangeError);
    expect(() => tangoInterval({ b: 0, c: 0, n: 0 }, 0.9)).toThrow(RangeError);
  });
});

describe('the non-inferiority test', () => {
  it('needs enough pairs: 20 clean pairs do not clear a 5-point margin, 100 do', () => {
    const small = nonInferiorityTest({ bothPass: 15, compressedOnly: 0, fullOnly: 0, bothFail: 5 }, 0.05);
    expect(small.nonInferior).toBe(false);
    expect(small.difference.lower).toBeCloseTo(-0.119158, 5);
    // Z(−0.05) = √(20·0.05/0.95) = 1.025978 < 1.644854.
    expect(small.z).toBeCloseTo(1.025978, 5);
    const large = nonInferiorityTest({ bothPass: 80, compressedOnly: 0, fullOnly: 0, bothFail: 20 }, 0.05);
    // Lower bound −z²/(100 + z²) = −0.026343 > −0.05; Z(−0.05) = √(100·0.05/0.95) = 2.294157.
    expect(large.difference.lower).toBeCloseTo(-0.026343, 5);
    expect(large.z).toBeCloseTo(2.294157, 5);
    expect(large.pValue).toBeCloseTo(1 - normalCdf(2.294157), 6);
    expect(large.nonInferior).toBe(true);
    expect(large.passRate).toEqual({ full: 0.8, compressed: 0.8 });
  });

  it('agrees with its interval: non-inferior exactly when the lower bound clears −margin', () => {
    for (const [b, c, n] of [
      [6, 16, 161],
      [2, 3, 60],
      [0, 4, 50],
      [5, 1, 30],
      [1, 1, 200],
    ] as const) {
      for (const margin of [0.02, 0.05, 0.1, 0.2]) {
        const test = nonInferiorityTest(
          { bothPass: n - b - c, compressedOnly: b, fullOnly: c, bothFail: 0 },
          margin,
        );
        expect(test.nonInferior).toBe(test.difference.lower > -margin);
      }
    }
  });

  it('checks its arguments', () => {
    const table = { bothPass: 1, compressedOnly: 0, fullOnly: 0, bothFail: 0 };
    expect(() => nonInferiorityTest(table, 0)).toThrow('margin');
    expect(() => nonInferiorityTest(table, 0.05, 0.6)).toThrow('alpha');
    expect(() =>
      nonInferiorityTest({ bothPass: 0, compressedOnly: 0, fullOnly: 0, bothFail: 0 }, 0.05),
    ).toThrow('no matched runs');
  });
});

describe('matched runs', () => {
  const digested = block('log', `line 1\n<< +120 lines, handle=dh_0123456789ab >>\nline 122`, {
    kind: 'log',
  });
  const run = (id: string, outcome: 'pass' | 'fail' | null, blocks = [block('o', 'ok')]) => ({
    ...trajectory(id, [[blocks, call('run', { cmd: 'pytest' })]]),
    outcome,
  });

  it('pairs runs by id, takes outcomes from outcomes.json, and reads what was digested', () => {
    const root = mkdtempSync(join(tmpdir(), 'distil-certify-'));
    const full = join(root, 'full');
    const compressed = join(root, 'compressed');
    mkdirSync(full);
    mkdirSync(join(compressed, 'nested'), { recursive: true });
    writeFileSync(join(full, 'a.json'), JSON.stringify(run('a', 'pass')));
    writeFileSync(join(full, 'b.json'), JSON.stringify(run('b', null)));
    writeFileSync(join(full, 'c.json'), JSON.stringify(run('c', 'pass')));
    writeFileSync(join(full, 'only-full.json'), JSON.stringify(run('z', 'pass')));
    writeFileSync(join(full, 'outcomes.json'), JSON.stringify({ b: 'fail' }));
    writeFileSync(join(compressed, 'a.json'), JSON.stringify(run('a', 'fail', [digested])));
    writeFileSync(join(compressed, 'nested', 'b.json'), JSON.stringify(run('b', 'pass')));
    writeFileSync(join(compressed, 'c.json'), JSON.stringify(run('c', null)));
    const progress: number[] = [];
    const matching = readMatchedRuns(full, compressed, (done) => progress.push(done));
    expect(matching.pairs.map((p) => p.id)).toEqual(['a', 'b']);
    expect(matching.onlyFull).toEqual(['z']);
    expect(matching.noOutcome).toEqual(['c']);
    expect(progress[progress.length - 1]).toBe(7);
    expect(pairedOutcomes(matching.pairs)).toEqual({
      bothPass: 0,
      compressedOnly: 1,
      fullOnly: 1,
      bothFail: 0,
    });
    const evidence = matching.pairs.map(runEvidence);
    expect(evidence[0]).toMatchObject({ digested: ['log:m'], regressed: true });
    expect(evidence[0]!.key).toMatch(/^[0-9a-f]{64}$/);
    expect(evidence[1]).toMatchObject({ digested: [], regressed: false });
    expect(digestedSignatures(run('x', null, [digested]))).toEqual(['log:m']);
  });

  it('refuses a folder with two runs of one id', () => {
    const root = mkdtempSync(join(tmpdir(), 'distil-certify-dup-'));
    writeFileSync(join(root, 'one.json'), JSON.stringify(run('a', 'pass')));
    writeFileSync(join(root, 'two.json'), JSON.stringify(run('a', 'pass')));
    expect(() => readMatchedRuns(root, root)).toThrow('run id a appears twice');
  });
});
