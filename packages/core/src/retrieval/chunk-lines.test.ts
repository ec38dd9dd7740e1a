import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkLines } from './chunk-lines.js';

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('chunkLines', () => {
  it('cuts 20-line windows that overlap by 4 lines, numbered from 1', () => {
    const chunks = chunkLines(`${numbered(50)}\n`);
    expect(chunks.map((c) => [c.lineStart, c.lineEnd])).toEqual([
      [1, 20],
      [17, 36],
      [33, 50],
    ]);
    expect(chunks[1]?.text.split('\n')[0]).toBe('line 17');
    expect(chunkLines('')).toEqual([]);
    expect(chunkLines('one line')).toEqual([{ text: 'one line', lineStart: 1, lineEnd: 1 }]);
  });

  it('cuts a very long line into bounded pieces that carry its line number', () => {
    const chunks = chunkLines(`short\n${'x'.repeat(25)}\nafter`, { maxChunkChars: 10 });
    expect(chunks.map((c) => [c.text, c.lineStart, c.lineEnd])).toEqual([
      ['short', 1, 1],
      ['xxxxxxxxxx', 2, 2],
      ['xxxxxxxxxx', 2, 2],
      ['xxxxx', 2, 2],
      ['after', 3, 3],
    ]);
  });

  it('covers every line, in order, with chunks whose text is exactly those lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 30 }).map((s) => s.replace(/\n/g, ' ')),
          { minLength: 1, maxLength: 80 },
        ),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 11 }),
        (lines, linesPerChunk, overlap) => {
          fc.pre(overlap < linesPerChunk);
          const text = lines.join('\n');
          const chunks = chunkLines(text, { linesPerChunk, overlapLines: overlap, maxChunkChars: 64 });
          const covered = new Set<number>();
          for (const chunk of chunks) {
            for (let line = chunk.lineStart; line <= chunk.lineEnd; line += 1) covered.add(line);
            const whole = lines.slice(chunk.lineStart - 1, chunk.lineEnd).join('\n');
            expect(whole.includes(chunk.text)).toBe(true);
            expect(chunk.text.length).toBeLessThanOrEqual(64);
          }
          const lineCount =
            text === '' ? 0 : text.endsWith('\n') && lines.length > 1 ? lines.length - 1 : lines.length;
          expect(covered.size).toBe(lineCount);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
