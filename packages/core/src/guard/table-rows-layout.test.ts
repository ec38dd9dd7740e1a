import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardTableRows } from './table-rows.js';

/**
 * The rule as first written, with an array of cell starts per line compared by their joined text: the
 * reference the allocation-free layout comparison must agree with.
 */
function referenceTableRows(texts: readonly string[], repeats: Int32Array, judged: Uint8Array): void {
  const columnStarts = (line: string): number[] => {
    const starts: number[] = [];
    let spaces = 0;
    for (let i = 0; i < line.length; i++) {
      if (line.charCodeAt(i) === 32) {
        spaces++;
        continue;
      }
      if (starts.length === 0 || spaces >= 2) starts.push(i);
      spaces = 0;
    }
    return starts;
  };
  const header = /^(?:[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*|-+)$/;
  let lines = 0;
  for (let u = 0; u < texts.length; u++) lines += repeats[u]!;
  let start = 0;
  while (start < texts.length) {
    const layout = columnStarts(texts[start]!);
    let end = start + 1;
    if (layout.length >= 2) {
      const key = layout.join(',');
      while (end < texts.length && columnStarts(texts[end]!).join(',') === key) end++;
      const rows = end - start;
      if (rows >= 20 && layout.length >= 3) {
        let total = 0;
        for (let u = start; u < end; u++) total += repeats[u]!;
        const rare = Math.max(2, Math.floor(total * 0.02));
        for (let col = 0; col < layout.length; col++) {
          const cellOf = (u: number): string =>
            texts[u]!.slice(layout[col], col + 1 < layout.length ? layout[col + 1] : undefined).trim();
          const counts = new Map<string, number>();
          for (let u = start; u < end && counts.size <= 8; u++)
            counts.set(cellOf(u), (counts.get(cellOf(u)) ?? 0) + repeats[u]!);
          if (counts.size > 8 || counts.size < 2) continue;
          if (Math.max(...counts.values()) < total * 0.6) continue;
          for (let u = start; u < end; u++) if (counts.get(cellOf(u))! <= rare) judged[u] = judged[u]! | 128;
        }
      } else if (
        lines < 200 &&
        rows >= 3 &&
        rows <= 12 &&
        layout.every((at, col) => header.test(texts[start]!.slice(at, layout[col + 1]).trim()))
      )
        for (let u = start; u < end; u++) judged[u] = judged[u]! | 128;
    }
    start = end;
  }
}

describe('guardTableRows layout comparison', () => {
  it('marks exactly the rows the array-per-line reference marks', () => {
    // Cells from a small vocabulary, padded to a few widths: aligned runs, broken runs, tabs, blank lines.
    const cell = fc.constantFrom(
      'NAME',
      'STATUS',
      'Running',
      'Pending',
      'web-1',
      '0/1',
      '1/1',
      'x',
      '---',
      '\t',
    );
    const gap = fc.constantFrom(' ', '  ', '   ', '    ');
    const row = fc
      .array(fc.tuple(cell, gap), { minLength: 0, maxLength: 5 })
      .map((parts) => parts.map(([c, g]) => c + g).join(''));
    const aligned = fc
      .tuple(fc.array(fc.constantFrom('Running', 'Pending', 'Failed!'), { minLength: 18, maxLength: 40 }))
      .map(([states]) => states.map((s, i) => `pod-${String(i).padStart(3, '0')}   ${s.padEnd(8)}   1/1`));
    const block = fc
      .array(
        fc.oneof(
          row.map((r) => [r]),
          aligned,
          fc.constant([' ', '']),
        ),
        { maxLength: 6 },
      )
      .map((parts) => [...new Set(parts.flat())]);
    fc.assert(
      fc.property(block, fc.nat(3), (texts, extra) => {
        const repeats = Int32Array.from(texts, (_, u) => 1 + ((u * extra) % 3));
        const fast = new Uint8Array(texts.length);
        const slow = new Uint8Array(texts.length);
        guardTableRows(texts, repeats, fast, 128);
        referenceTableRows(texts, repeats, slow);
        expect(Array.from(fast)).toEqual(Array.from(slow));
      }),
      { numRuns: 300 },
    );
  });
});
