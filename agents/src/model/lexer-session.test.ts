import type { ConversationView, ToolCallSeen } from '@distil/savings';
import { describe, expect, it } from 'vitest';
import { findFailure, lexerSession } from './lexer-session.js';
import { codexToolbelt } from './toolbelt.js';

const LOG_WITH_FAILURE = [
  '2026-11-28T09:14:17.1Z ##[group]Run node --test --test-reporter=spec test/',
  '2026-11-28T09:14:17.2Z   ✖ keeps escaped quotes inside strings (1.5ms)',
  '2026-11-28T09:14:17.2Z     AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
  '2026-11-28T09:14:17.2Z         at TestContext.<anonymous> (file:///home/runner/work/lexer/lexer/test/tokenize.test.js:27:12)',
].join('\n');

const call = (name: string, input: unknown, output: string | null, id = name): ToolCallSeen => ({
  id,
  name,
  input,
  output,
  distil: name.startsWith('distil_'),
});
const view = (
  calls: ToolCallSeen[],
  tools: string[] = ['exec_command', 'apply_patch'],
): ConversationView => ({
  calls,
  offeredTools: new Set(tools),
  userText: 'the CI job failed',
});

describe('the scripted lexer session', () => {
  const model = lexerSession(codexToolbelt(false), 'short');

  it('starts by reading the CI log', () => {
    expect(model(view([]))).toEqual({
      kind: 'tool',
      name: 'exec_command',
      input: { cmd: 'cat ci/test-20.x.log' },
    });
  });

  it('finds the failure the log shows: test name and the test-file frame', () => {
    expect(
      findFailure(view([call('exec_command', { cmd: 'cat ci/test-20.x.log' }, LOG_WITH_FAILURE)])),
    ).toEqual({
      testName: 'keeps escaped quotes inside strings',
      location: 'test/tokenize.test.js:27',
    });
  });

  it('expands the folds after the test step at once when the failure is folded and distil_expand is offered', () => {
    const folded = [
      'npm ci output',
      '<< +12 lines, handle=dh_00000000000a >>',
      '##[group]Run node --test --test-reporter=spec test/',
      '<< +40 lines, handle=dh_00000000000b >>',
      'ok 7 - parses pipes',
      '<< +9 lines, handle=dh_00000000000c >>',
    ].join('\n');
    const seen = view(
      [call('exec_command', { cmd: 'cat ci/test-20.x.log' }, folded)],
      ['exec_command', 'distil_expand'],
    );
    // The suspects (folds after the test step) in one reply, as parallel calls.
    expect(model(seen)).toEqual({
      kind: 'tool',
      name: 'distil_expand',
      input: { handle: 'dh_00000000000b' },
      more: [{ name: 'distil_expand', input: { handle: 'dh_00000000000c' } }],
    });
    const expandedOnce = view(
      [
        call('exec_command', { cmd: 'cat ci/test-20.x.log' }, folded),
        call('distil_expand', { handle: 'dh_00000000000b' }, 'passing tests only', 'x1'),
        call('distil_expand', { handle: 'dh_00000000000c' }, 'passing tests only', 'x2'),
      ],
      ['exec_command', 'distil_expand'],
    );
    expect(model(expandedOnce)).toEqual({
      kind: 'tool',
      name: 'distil_expand',
      input: { handle: 'dh_00000000000a' },
      more: [],
    });
  });

  it('greps the log when the failure is not visible and nothing can be expanded', () => {
    const cut = view([
      call('exec_command', { cmd: 'cat ci/test-20.x.log' }, 'head…9000 tokens truncated…tail'),
    ]);
    expect(model(cut)).toMatchObject({ kind: 'tool', input: { cmd: 'grep -n -A 12 "✖" ci/test-20.x.log' } });
  });

  it('answers with what it found once the module is read', () => {
    const done = view([
      call('exec_command', { cmd: 'cat ci/test-20.x.log' }, LOG_WITH_FAILURE, 'a'),
      call('exec_command', { cmd: 'nl -ba src/tokenize.js' }, '1\t// tokenizer', 'b'),
    ]);
    expect(model(done)).toEqual({
      kind: 'final',
      text: 'The CI job fails in "keeps escaped quotes inside strings" at test/tokenize.test.js:27 (AssertionError).',
    });
  });

  it('answers a side request without tools plainly', () => {
    expect(model(view([], []))).toMatchObject({ kind: 'final' });
  });
});
