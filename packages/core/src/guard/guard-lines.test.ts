import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorsIn, collectAnchors, DEFAULT_ANCHORED_LINES } from './anchors.js';
import { hasLocation } from './diagnostics.js';
import { isElisionMarker } from './elision-markers.js';
import { hasDenseToken } from './entropy.js';
import { type GuardOptions, GuardReason, guardLines } from './guard-lines.js';
import { hasIdentifier } from './identifiers.js';
import { lineKeywords } from './keywords.js';
import { coarseShapeCounts } from './line-shape.js';
import { clearRoutineSlotSurprise } from './routine-slots.js';
import { isDiffChange, isDiffHeader, isSurprising } from './surprise.js';

/**
 * The anchor rule written out over lines: each token's lines counted, tokens on more than `maxLines`
 * lines dropped, the rest taken rarest first (ties: first to appear) while the lines they anchor fit.
 */
function anchoredByLine(lines: readonly string[], anchors: ReadonlySet<string>, maxLines: number): boolean[] {
  const found = lines.map((line) => anchorsIn(line, anchors));
  const frequency = new Map<string, number>();
  const first = new Map<string, number>();
  found.forEach((tokens, i) => {
    for (const t of tokens) {
      frequency.set(t, (frequency.get(t) ?? 0) + 1);
      if (!first.has(t)) first.set(t, i);
    }
  });
  const order = [...frequency.keys()]
    .filter((t) => frequency.get(t)! <= maxLines)
    .sort((a, b) => frequency.get(a)! - frequency.get(b)! || first.get(a)! - first.get(b)!);
  const anchored = lines.map(() => false);
  let count = 0;
  for (const t of order) {
    const hits = found.map((tokens, i) => !anchored[i] && tokens.has(t));
    const added = hits.filter(Boolean).length;
    if (count + added > maxLines) continue;
    hits.forEach((hit, i) => {
      if (hit) anchored[i] = true;
    });
    count += added;
  }
  return anchored;
}

/** The guard line by line, every line judged on its own: what collapsing repeats must reproduce. */
function guardLineByLine(lines: readonly string[], options: GuardOptions): Uint8Array {
  const reasons = new Uint8Array(lines.length);
  const { shapes, counts } = coarseShapeCounts(lines);
  const anchored = options.anchors
    ? anchoredByLine(lines, options.anchors, options.anchoredLines ?? DEFAULT_ANCHORED_LINES)
    : lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.length === 0) return;
    let r = 0;
    if (isSurprising(line)) r |= GuardReason.surprise;
    const diffHeader = (options.kind === 'diff' || line.startsWith('diff --git ')) && isDiffHeader(line);
    if (diffHeader || isDiffChange(line, options.kind)) r |= GuardReason.diffChange;
    if (anchored[i]) r |= GuardReason.anchor;
    if (hasLocation(line)) r |= GuardReason.location;
    if (isElisionMarker(line)) r |= GuardReason.elision;
    if (r === 0 && counts.get(shapes[i]!)! <= 2) {
      if (hasIdentifier(line)) r |= GuardReason.identifier;
      if (hasDenseToken(line)) r |= GuardReason.entropy;
    }
    reasons[i] = r;
  });
  // surprise relative to the block, over the lines as they are (each line its own text, seen once)
  const keywords = Int32Array.from(lines, (line) => lineKeywords(line));
  clearRoutineSlotSurprise(
    lines,
    new Int32Array(lines.length).fill(1),
    keywords,
    reasons,
    GuardReason.surprise,
  );
  // a line the rule spared is judged again for a rare identifier, as any unguarded line is
  lines.forEach((line, i) => {
    if (reasons[i] !== 0 || line.length === 0 || counts.get(shapes[i]!)! > 2) return;
    if (hasIdentifier(line)) reasons[i] = reasons[i]! | GuardReason.identifier;
    if (hasDenseToken(line)) reasons[i] = reasons[i]! | GuardReason.entropy;
  });
  return reasons;
}

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

  it('reads the level of structured logs: an info record naming its caller is not a finding', () => {
    const lines = [
      '{"level":"info","ts":"2025-05-07T10:09:13Z","caller":"pkg/store/client.go:361","msg":"request completed"}',
      'I0304 03:45:53.415959       1 cmd/handler.go:71] "request completed" status=200',
      '2023-04-17 03:40:15,836 INFO [uvicorn.error] 10.0.0.7:47436 - "GET /v2/configs HTTP/1.1" 200',
      'Apr 12 14:35:52.838 - 0m0s DEBUG balancer: balancer.go:102 Balancer idle, checking all dialers',
      '{"level":"error","caller":"pkg/store/client.go:90","msg":"write failed"}',
      'E0304 03:45:54.000001       1 cmd/handler.go:80] "write failed" err="disk full"',
      'src/app.ts:12:5 - error TS2304: Cannot find name "x".',
      '[INFO] 3 errors',
      'requests.exceptions.ConnectionError: HTTPSConnectionPool(host=api, port=443)',
    ];
    const reasons = guardLines(lines, { kind: 'log' });
    // the finding signals only: in a block this small every shape is rare, so identifiers count too
    const finding = GuardReason.surprise | GuardReason.location;
    expect([...reasons].map((r) => (r & finding) !== 0)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
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

  it('keeps a rarely named anchor, and lets a token on most lines anchor nothing', () => {
    const anchors = collectAnchors(['why is the build cache of checkout_service stale?']);
    const lines = [
      ...Array.from({ length: 200 }, (_, i) => `restored build cache entry ${i} for module m${i}`),
      'checkout_service: cache key changed, rebuilding',
    ];
    const anchor = [...guardLines(lines, { kind: 'log', anchors })].map(
      (r) => (r & GuardReason.anchor) !== 0,
    );
    expect(anchor.at(-1)).toBe(true);
    // `build` and `cache` are on 201 of 201 lines: they single out nothing
    expect(anchor.slice(0, -1).some(Boolean)).toBe(false);
  });

  it('lets many anchors together single out at most the configured lines, rarest first', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`);
    // word k is on k + 1 lines: the rarer the word, the fewer lines it names
    const lines = words.flatMap((w, k) => Array.from({ length: k + 1 }, (_, j) => `${w} step ${j}`));
    const anchors = new Set(words);
    for (const anchoredLines of [0, 5, 20, 50]) {
      const reasons = guardLines(lines, { kind: 'log', anchors, anchoredLines });
      const anchored = [...reasons].map((r) => (r & GuardReason.anchor) !== 0);
      const count = anchored.filter(Boolean).length;
      expect(count).toBeLessThanOrEqual(anchoredLines);
      // the rarest words are the ones taken: 1 + 2 + … lines, as many as fit
      let fit = 0;
      for (let k = 0; fit + k + 1 <= anchoredLines; k++) fit += k + 1;
      expect(count).toBe(fit);
      if (anchoredLines > 0) expect(anchored[0]).toBe(true);
    }
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

  it('judges repeated lines as it would judge each on its own, repeats counted toward rarity', () => {
    const pool = [
      '',
      'compiling module core',
      'deployed revision 3f9c2a1b7e to node 10.0.4.17',
      'deployed revision 9a8b7c6d5e to node 10.0.4.18',
      'token aZ9kQ2mX7pL4vB8n issued',
      'ERROR: disk full',
      '[INFO] 0 errors',
      'at src/app.ts:12:5',
      '+const b = 3;',
      'Why does checkout_service restart?',
      `payload ${'x7Gq2'.repeat(90)}`,
      `payload ${'p3Lm9'.repeat(90)}`,
      'last lines of the head…1834 tokens truncated…first lines of the tail',
      '[... omitted 144 of 400 lines ...]',
      '• reads a missing file (2.1ms)',
      '• writes a missing file (0.4ms)',
      '• parses tabs (0.3ms)',
      '• parses tabs (0.5ms)',
    ];
    const anchors = collectAnchors(['checkout_service', 'revision 3f9c2a1b7e', 'token issued', 'payload']);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pool), { maxLength: 40 }),
        fc.constantFrom<GuardOptions['kind']>('log', 'diff'),
        fc.boolean(),
        fc.integer({ min: 0, max: 24 }),
        (lines, kind, anchored, anchoredLines) => {
          const options = { kind, anchoredLines, ...(anchored && { anchors }) };
          expect(guardLines(lines, options)).toEqual(guardLineByLine(lines, options));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is a function of the block and the anchors alone', () => {
    expect(guardLines(noise, { kind: 'log' })).toEqual(guardLines([...noise], { kind: 'log' }));
  });
});
