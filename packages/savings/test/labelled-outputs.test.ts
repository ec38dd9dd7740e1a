import { describe, expect, it } from 'vitest';
import { importClaudeCodeLog, labelledOutputs, parseJsonLines } from '../src/index.js';
import { claudeCodeLog, FAILURE_LINE } from './claude-code-fixture.js';

const session = (() => {
  const { records, skipped } = parseJsonLines(claudeCodeLog({ passingTests: 300 }));
  return importClaudeCodeLog(records, 'session.jsonl', skipped.length);
})();

describe('tool outputs labelled by what the agent did next', () => {
  const outputs = labelledOutputs(session);
  const log = outputs.find((o) => o.id === 'toolu_01')!;

  it('labels a line needed when a later reply refers to it, and routine lines not', () => {
    expect(log.lines).toHaveLength(300 + 3 + 3 + 3);
    const needed = log.lines.filter((_, i) => log.needed[i] === 1);
    expect(needed).toContain(FAILURE_LINE);
    // the passing cases share no token with anything the agent wrote afterwards
    expect(needed.some((l) => l.includes('case_150 '))).toBe(false);
    expect(needed.length).toBeLessThan(log.lines.length / 10);
  });

  it('gives the context known before the output was read: the task, the call input, what came before', () => {
    expect(log.task).toContain('Find the failing test');
    expect(log.input).toContain('cat ci/test.log');
    expect(log.earlier).toContain('cat ci/test.log');
    expect(log.earlier).not.toContain('The failing test is');
    const read = outputs.find((o) => o.id === 'toolu_02')!;
    expect(read.earlier).toContain('The failing test is');
  });
});
