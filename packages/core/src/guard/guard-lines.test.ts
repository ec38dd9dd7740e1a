import { describe, expect, it } from 'vitest';
import { collectAnchors } from './anchors.js';
import { GuardReason, guardLines } from './guard-lines.js';

const noise = Array.from(
  { length: 30 },
  (_, i) => `Downloading https://repo.example.org/lib${i}/pkg-${i}.0.1.jar (${i + 2} kB)`,
);

describe('guardLines', () => {
  it('guards error, failure and timeout lines outright', () => {
    const lines = [
      'compiling…',
      'ERROR: disk at 94% capacity',
      'request timed out after 30s',
      'Traceback (most recent call last):',
      'all good',
    ];
    const reasons = guardLines(lines, { kind: 'log' });
    expect([...reasons].map((r) => (r & GuardReason.surprise) !== 0)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it('does not guard identifier-bearing lines that are one of many alike', () => {
    const reasons = guardLines(noise, { kind: 'log' });
    expect(reasons.every((r) => r === 0)).toBe(true);
  });

  it('guards a line whose identifier stands out', () => {
    const lines = [
      ...noise,
      'deployed revision 3f9c2a1b7e to node 10.0.4.17 as 0b8e6f1c-2d3a-4e5f-8a9b-0c1d2e3f4a5b',
    ];
    const reasons = guardLines(lines, { kind: 'log' });
    expect(reasons[lines.length - 1]! & GuardReason.identifier).toBeTruthy();
  });

  it('guards lines naming an anchor from the trusted side', () => {
    const anchors = collectAnchors(['Why does checkout_service keep restarting?']);
    const lines = ['pod/cart-7d9f ready', 'pod/checkout_service-5c8d restarted 4 times', 'pod/web-1 ready'];
    const reasons = guardLines(lines, { kind: 'log', anchors });
    expect([...reasons].map((r) => (r & GuardReason.anchor) !== 0)).toEqual([false, true, false]);
  });

  it('guards the changed lines and headers of a diff, not its context', () => {
    const lines = [
      'diff --git a/x.ts b/x.ts',
      '--- a/x.ts',
      '+++ b/x.ts',
      '@@ -1,3 +1,3 @@',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
    ];
    const reasons = guardLines(lines, { kind: 'diff' });
    expect([...reasons].map((r) => r !== 0)).toEqual([true, true, true, true, false, true, true]);
  });

  it('is a function of the block and the anchors alone', () => {
    expect(guardLines(noise, { kind: 'log' })).toEqual(guardLines([...noise], { kind: 'log' }));
  });
});
