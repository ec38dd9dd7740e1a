import { describe, expect, it } from 'vitest';
import { labelCorpusLines, splitOf } from './line-dataset.js';
import type { TraceCorpus } from './trace-corpus.js';

const corpusOf = (documents: TraceCorpus['documents']): TraceCorpus => ({
  roots: [],
  documents,
  textFiles: 0,
  trajectoryFiles: 0,
  trajectories: 0,
});

describe('labelCorpusLines', () => {
  it('splits the lines of a session together, by the session, and other lines each by its own text', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} of the build`);
    const sessions = ['session-a', 'session-b', 'session-c'].map((group) => ({
      source: `${group}.jsonl#1`,
      kind: 'tool_output' as const,
      lines,
      decision: new Uint8Array(lines.length),
      decisionOrigin: 'session' as const,
      group,
    }));
    const file = { source: 'build.log', kind: 'log' as const, lines };
    const labelled = labelCorpusLines(corpusOf([...sessions, file]));
    for (const [k, { group }] of sessions.entries()) {
      const mine = labelled.slice(k * lines.length, (k + 1) * lines.length);
      expect(new Set(mine.map((l) => l.split))).toEqual(new Set([splitOf(group)]));
    }
    const fromFile = labelled.slice(sessions.length * lines.length);
    expect(fromFile.map((l) => l.split)).toEqual(lines.map(splitOf));
    expect(new Set(fromFile.map((l) => l.split)).size).toBeGreaterThan(1);
  });
});
