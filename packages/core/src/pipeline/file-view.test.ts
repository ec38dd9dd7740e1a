import { describe, expect, it } from 'vitest';
import { foldableBySalience } from './file-view.js';

const numbered = (lines: string[], gutter: (n: number) => string): string =>
  lines.map((line, i) => `${gutter(i + 1)}${line}`).join('\n');
const prose = Array.from({ length: 40 }, (_, i) => `Step ${i}: read the task file and do what it says.`);
const log = Array.from(
  { length: 40 },
  (_, i) => `2026-11-30T10:00:${String(i).padStart(2, '0')}Z INFO step ${i} done`,
);

describe('foldableBySalience', () => {
  it('never folds prose, and folds tool output and logs', () => {
    expect(foldableBySalience(prose.join('\n'), 'doc')).toBe(false);
    expect(foldableBySalience(prose.join('\n'), 'tool_output')).toBe(true);
    expect(foldableBySalience(log.join('\n'), 'log')).toBe(true);
  });

  it('keeps a file read by name whole, in every viewer format, unless the file is a log', () => {
    const views = [
      numbered(prose, (n) => `${String(n).padStart(6)}→`),
      numbered(prose, (n) => `${n}\t`),
      `[File: /work/notes.md (40 lines total)]\n${numbered(prose, (n) => `${n}:`)}`,
      `Here's the result of running \`cat -n\` on /work/notes.md:\n${numbered(prose, (n) => `${String(n).padStart(6)}\t`)}`,
    ];
    for (const view of views) expect(foldableBySalience(view, 'tool_output')).toBe(false);
    expect(
      foldableBySalience(
        numbered(log, (n) => `${n}\t`),
        'tool_output',
      ),
    ).toBe(true);
  });

  it('reads grep -n output, whose numbers skip, as tool output', () => {
    const grep = prose.map((line, i) => `${i * 7 + 3}:${line}`).join('\n');
    expect(foldableBySalience(grep, 'tool_output')).toBe(true);
  });
});
