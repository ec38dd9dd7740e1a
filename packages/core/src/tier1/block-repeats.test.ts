import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { compressBlock } from '../pipeline/compress-block.js';
import { restoreBlock } from '../pipeline/restore-block.js';
import { MemoryRestoreStore } from '../store/index.js';
import { releaseRepeats } from './block-repeats.js';
import { findStubs } from './stub.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string): Block => ({ id: 'build', role: 'tool', kind: 'log', text, trusted: false });

/** One module's failure: the same exception and frames every time, as a build on a full disk prints them. */
const TRACE = [
  '[ERROR] No space left on device',
  'java.io.IOException: No space left on device',
  ...Array.from(
    { length: 12 },
    (_, i) => `    at spoon.support.visitor.Scanner${i}.scan (Scanner${i}.java:${100 + i})`,
  ),
];

function buildLog(modules: number): string {
  const lines = Array.from({ length: 10 }, (_, i) => `[INFO] setting up step ${i}`);
  for (let m = 0; m < modules; m++) lines.push(`[INFO] Building module-${m} 1.0`, ...TRACE);
  lines.push(...Array.from({ length: 14 }, (_, i) => `[INFO] closing step ${i}`));
  return `${lines.join('\n')}\n`;
}

describe('repeats are the same news', () => {
  it('shows a trace printed once per module once, and folds its copies behind stubs that say so', async () => {
    const text = buildLog(20);
    const store = new MemoryRestoreStore();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    for (const line of TRACE) expect(out.text.split('\n').filter((l) => l === line)).toHaveLength(1);
    expect(out.text).toMatch(/<< \+\d+ lines repeated above, handle=dh_[0-9a-f]{12} >>/);
    // the module headers differ, so each stays: the agent still sees which modules failed
    for (let m = 0; m < 20; m++) expect(out.text).toContain(`[INFO] Building module-${m} 1.0`);
    expect(findStubs(out.text).map((s) => s.handle)).toEqual(out.handles);
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('releases only exact copies of kept lines, never pinned ones, and tells colours apart', () => {
    const raw = [
      'expected: \u001b[32mok\u001b[39m',
      'expected: \u001b[31mok\u001b[39m',
      'same line',
      '2024-01-02T03:04:05.1234567Z same line',
      'same line',
      'not kept',
      'not kept',
      '',
      '',
    ];
    const keep = Uint8Array.from([1, 1, 1, 1, 1, 1, 0, 1, 1]);
    const pinned = Uint8Array.from([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    const repeats = releaseRepeats(raw, keep, pinned);
    // a runner's timestamp is not part of what a line says; a pinned copy and blank lines stay
    expect([...repeats]).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect([...keep]).toEqual([1, 1, 1, 0, 1, 1, 0, 1, 1]);
  });
});
