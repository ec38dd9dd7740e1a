import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReReadIndex } from './re-read-index.js';

/** The index as first written: a Map of line → entries. The compact table must answer exactly as it did. */
class MapIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly counts: number[] = [];

  add(entry: number, lines: readonly string[]): void {
    const distinct = keys(lines);
    this.counts[entry] = distinct.size;
    for (const line of distinct) {
      const list = this.postings.get(line);
      if (!list) this.postings.set(line, [entry]);
      else if (list.length < 64) list.push(entry);
    }
  }

  best(lines: readonly string[], minShare: number): { entry: number; shared: number } | null {
    const distinct = keys(lines);
    if (distinct.size === 0) return null;
    const counts = new Map<number, number>();
    for (const line of distinct) {
      const list = this.postings.get(line);
      if (!list || list.length >= 64) continue;
      for (const entry of list) counts.set(entry, (counts.get(entry) ?? 0) + 1);
    }
    let best: { entry: number; shared: number } | null = null;
    for (const [entry, shared] of counts) {
      const theirs = this.counts[entry] ?? 0;
      if (shared < minShare * distinct.size || shared < minShare * theirs) continue;
      if (!best || shared > best.shared || (shared === best.shared && entry > best.entry))
        best = { entry, shared };
    }
    return best;
  }
}

function keys(lines: readonly string[]): Set<string> {
  return new Set(lines.map((l) => l.replace(/[\s"';,]+/g, '')).filter((l) => l.length >= 4));
}

describe('ReReadIndex', () => {
  it('finds the same best match as a plain Map index, through growth and shared lines', () => {
    // Few distinct lines, so entries share lines (lists) and a common line passes the posting cap.
    // Some lines of any code units (wide spaces, lone surrogates) but '\n', which ends a line.
    const line = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.integer({ min: 0, max: 400 }).map((n) => `line number ${n % 90 === 0 ? 0 : n}`),
      },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((l) => l.replaceAll('\n', '')),
      },
    );
    const text = fc.array(line, { minLength: 0, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 90 }), text, (entries, probe) => {
        const index = new ReReadIndex();
        const reference = new MapIndex();
        entries.forEach((lines, entry) => {
          index.add(entry, lines.join('\n'));
          reference.add(entry, lines);
        });
        for (const minShare of [0.2, 0.5]) {
          const got = index.best(probe.join('\n'), minShare);
          const want = reference.best(probe, minShare);
          expect(got && { entry: got.entry, shared: got.shared }).toEqual(want);
        }
        // a text looked up and then indexed (its keys computed once) answers like any other entry
        index.add(entries.length, probe.join('\n'));
        reference.add(entries.length, probe);
        const again = index.best([...probe].join('\n'), 0.5);
        expect(again && { entry: again.entry, shared: again.shared }).toEqual(reference.best(probe, 0.5));
      }),
      { numRuns: 200 },
    );
  });

  it('finds a re-read among thousands of indexed lines', () => {
    const index = new ReReadIndex();
    const text = (n: number) => Array.from({ length: 80 }, (_, i) => `entry ${n} line ${i} of output`);
    for (let n = 0; n < 100; n++) index.add(n, text(n).join('\n'));
    const edited = text(42);
    edited[10] = 'a changed line';
    expect(index.best(edited.join('\n'), 0.5)).toMatchObject({ entry: 42, shared: 79 });
  });

  it('indexes a text longer than the scratch it keeps, and the next one again with the kept scratch', () => {
    const long = Array.from({ length: 120_000 }, (_, i) => `output line ${i}`).join('\n');
    expect(long.length * 2).toBeGreaterThan(2 * 1024 * 1024);
    const index = new ReReadIndex();
    index.add(0, long);
    index.add(1, 'a short text\nof two lines');
    // 32-bit line hashes: among 120,000 lines a collision or two is expected (it only merges two lines)
    expect(index.best(long, 0.9)).toMatchObject({ entry: 0, share: 1 });
    expect(index.best(long, 0.9)!.shared).toBeGreaterThan(119_990);
    expect(index.best('a short text\nof two lines', 0.9)).toEqual({ entry: 1, shared: 2, share: 1 });
  });

  it('reads a line the same whatever whitespace, quotes, semicolons and commas it gained or lost', () => {
    const before = ['const a = "x";', 'call(one, two);', '\treturn value;', 'end of block'];
    const after = ["const\u00a0a\u3000=\u2009'x'", 'call(one,two)', '    return value', 'end of\u202fblock,'];
    const index = new ReReadIndex();
    index.add(0, before.join('\n'));
    expect(index.best(after.join('\n'), 0.9)).toEqual({ entry: 0, shared: 4, share: 1 });
    expect(index.best(['const b = "x";', ...after.slice(1)].join('\n'), 0.9)).toBeNull();
  });
});
