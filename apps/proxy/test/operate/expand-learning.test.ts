import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExpandFlywheel, expandStatsPath, learnFromRuns, signatureOf } from '@distil/replay';
import { afterAll, describe, expect, it } from 'vitest';
import { ExpandLearning } from '../../src/operate/expand-learning.js';
import { buildLog } from '../fixtures.js';

const homes: string[] = [];
const home = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-learning-'));
  homes.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});
const LOG = { kind: 'log' as const, text: buildLog(300) };
const handle = (i: number) => `dh_${i.toString(16).padStart(12, '0')}`;

describe('ExpandLearning (the proxy side of the expand flywheel)', () => {
  it('protects in memory at the crossing expand, and writes the counts only when flushed', async () => {
    const dir = home();
    const logs: string[] = [];
    const learning = ExpandLearning.open(dir, (line) => logs.push(line));
    for (let i = 0; i < 3; i++) {
      expect(learning.sendsWhole(LOG)).toBe(false);
      learning.trackDigest(LOG, [handle(i)]);
      learning.recordExpand(handle(i));
    }
    expect(learning.sendsWhole(LOG)).toBe(true);
    // nothing on disk yet: the request path never writes
    expect(existsSync(expandStatsPath(dir))).toBe(false);
    await learning.close();
    expect(ExpandFlywheel.open(dir).counts(signatureOf(LOG))).toEqual({ digests: 3, expands: 3 });
    expect(logs).toEqual([]);
  });

  it('counts no expand of a handle it did not issue, and nothing when off', async () => {
    const dir = home();
    const learning = ExpandLearning.open(dir, () => {});
    learning.recordExpand(handle(7));
    await learning.close();
    expect(existsSync(expandStatsPath(dir))).toBe(false);
    const off = ExpandLearning.off();
    for (let i = 0; i < 5; i++) {
      off.trackDigest(LOG, [handle(i)]);
      off.recordExpand(handle(i));
    }
    expect(off.sendsWhole(LOG)).toBe(false);
  });

  it('applies what the guideline flywheel protected', () => {
    const dir = home();
    const digested = [signatureOf(LOG)];
    learnFromRuns(
      [1, 2].map((n) => ({ key: n.toString(16).padStart(64, '0'), digested, regressed: true })),
      dir,
    );
    expect(ExpandLearning.open(dir, () => {}).sendsWhole(LOG)).toBe(true);
  });

  it('keeps its counts when a write fails, says so once, and writes them once it can', async () => {
    const dir = home();
    const logs: string[] = [];
    const learning = ExpandLearning.open(dir, (line) => logs.push(line));
    writeFileSync(join(dir, 'learn'), 'a file where the folder goes');
    learning.trackDigest(LOG, [handle(1)]);
    learning.recordExpand(handle(1));
    await learning.flush();
    learning.trackDigest(LOG, [handle(2)]);
    await learning.flush();
    expect(logs.filter((line) => line.startsWith('could not write the expand statistics'))).toHaveLength(1);
    rmSync(join(dir, 'learn'));
    await learning.close();
    expect(ExpandFlywheel.open(dir).counts(signatureOf(LOG))).toEqual({ digests: 2, expands: 1 });
  });
});
