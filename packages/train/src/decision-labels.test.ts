import { describe, expect, it } from 'vitest';
import { decisionLabels, FollowingText, lineCarriers } from './decision-labels.js';
import { labelToolOutputs } from './trajectory-lines.js';

const common = (w: string) =>
  ['this', 'that', 'with', 'tests', 'passed', 'failed', 'error', 'total', 'root'].includes(w);

describe('lineCarriers', () => {
  it('finds paths, identifiers, numbers and quoted strings, not prose', () => {
    const c = lineCarriers(`  File "src/app/models.py", line 42, in save_user: KeyError 'user_id'`, common);
    expect(c.paths).toContain('src/app/models.py');
    expect(c.words).toEqual(expect.arrayContaining(['save_user', 'keyerror', 'user_id']));
    expect(c.numbers).toContain('42');
    expect(c.quoted).toEqual(expect.arrayContaining(['src/app/models.py', 'user_id']));
    expect(lineCarriers('this passed with tests', common).words).toEqual([]);
  });
});

describe('decisionLabels', () => {
  it('keeps a line whose carrier the next action uses, unless the producing action already had it', () => {
    const lines = [
      'collected 3 items',
      'FAILED tests/test_api.py::test_login - AssertionError',
      'tests/test_db.py ... ok',
    ];
    const following = new FollowingText('open tests/test_api.py 12');
    expect(Array.from(decisionLabels(lines, following, new FollowingText('pytest -q'), common))).toEqual([
      0, 1, 0,
    ]);
    const known = new FollowingText('pytest tests/test_api.py');
    expect(Array.from(decisionLabels(lines, following, known, common))).toEqual([0, 0, 0]);
  });

  it('ignores a carrier repeated across most lines of the block (an ls -l column)', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `-rw-r--r-- 1 root root 4096 Apr 30 file${i}.txt`);
    const labels = decisionLabels(
      lines,
      new FollowingText('cat file3.txt; echo 4096'),
      new FollowingText('ls -l'),
      common,
    );
    expect(Array.from(labels)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  });
});

describe('labelToolOutputs', () => {
  it('reads "what came next" from the following turns’ decisions and reasoning', () => {
    const outputs = labelToolOutputs(
      {
        format: 'distil.trajectory/v1',
        id: 't1',
        outcome: null,
        turns: [
          {
            blocks: [{ id: 'u', role: 'user', kind: 'chat', text: 'fix the crash', trusted: true }],
            decision: { type: 'tool_call', tool: 'bash', arguments: { cmd: 'grep -rn parse_config src' } },
          },
          {
            blocks: [
              {
                id: 'o',
                role: 'tool',
                kind: 'tool_output',
                text: 'src/config/loader.ts:17: parse_config(raw)\nsrc/cli.ts:3: // parse_config docs\n',
                trusted: false,
              },
            ],
            decision: { type: 'tool_call', tool: 'read', arguments: { path: 'src/config/loader.ts' } },
          },
          {
            blocks: [
              {
                id: 'a',
                role: 'assistant',
                kind: 'chat',
                text: 'The loader calls it at line 17.',
                trusted: false,
              },
            ],
            decision: null,
          },
        ],
      },
      common,
    );
    expect(outputs).toHaveLength(1);
    expect(outputs[0]?.kind).toBe('tool_output');
    expect(Array.from(outputs[0]?.decision ?? [])).toEqual([1, 0]);
  });
});
