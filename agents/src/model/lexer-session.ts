import { findStubs } from '@distil/core';
import type { ConversationView, ScriptedReply, ToolCallSeen } from '@distil/savings';
import { BUGGY_LOOP, FIXED_LOOP, SOURCE_PATH } from '../workspace/lexer-project.js';
import { CI_LOG_PATH } from '../workspace/workspace.js';
import type { Toolbelt } from './toolbelt.js';

/** How much of the session to play: the short one for CI, the long one for the bench. */
export type SessionLength = 'short' | 'long';

const READ_LOG = `cat ${CI_LOG_PATH}`;
const GREP_LOG = `grep -n -A 12 "✖" ${CI_LOG_PATH}`;
const GREP_SYMBOL = 'grep -rn "readString" src test';
const RUN_TESTS = 'node --test --test-reporter=spec test/';

/** The failing test as a reader finds it: a ✖ line followed by an AssertionError, and the stack frame in a test file. */
const FAILING_TEST_LINE = /✖ ([^\n]+?) \([\d.]+ms\)\n[^\n]*AssertionError/;
const TEST_FRAME = /\(file:\/\/[^\s)]*?\/(test\/[\w./-]+\.test\.js):(\d+):\d+\)/;
const PERSISTED_PATH = /<persisted-output>[\s\S]*?saved to: (\S+)/;

/** What the model has found about the failure so far, from everything the request shows. */
export interface FailureFinding {
  readonly testName: string;
  readonly location: string;
}

/** The failure as the visible tool results (expansions included) tell it, or null when they do not. */
export function findFailure(view: ConversationView): FailureFinding | null {
  const text = view.calls.map((call) => call.output ?? '').join('\n');
  const test = FAILING_TEST_LINE.exec(text);
  const frame = TEST_FRAME.exec(text);
  if (!test || !frame) return null;
  return { testName: test[1]!.trim(), location: `${frame[1]}:${frame[2]}` };
}

/**
 * The lexer session: read the failed CI job's log (Claude Code saves a long Bash output to a file and
 * shows a preview, so the model then Reads that file), find the failing test — expanding a fold with
 * distil_expand when the failure is not visible and the tool is offered, or grepping the log when the
 * agent cut its output — then read the module; the long session also greps for the function, edits it,
 * re-reads it and runs the tests. The final answer names what the model found, so two runs that saw the
 * same facts answer the same.
 */
export function lexerSession(
  tools: Toolbelt,
  length: SessionLength,
): (view: ConversationView) => ScriptedReply {
  return (view) => {
    // A request without tools is a client's side request (titles, summaries): answer it plainly.
    if (view.offeredTools.size === 0) return { kind: 'final', text: 'Investigating a CI failure' };
    const done = (match: (call: ToolCallSeen) => boolean): ToolCallSeen | undefined =>
      view.calls.find((call) => !call.distil && call.output !== null && match(call));
    const logRead = done((call) => tools.isShell(call, READ_LOG));
    if (!logRead) return tools.shell(READ_LOG, 'Show the CI job log');
    const persisted = PERSISTED_PATH.exec(logRead.output ?? '');
    if (persisted && !done((call) => tools.isRead(call, persisted[1]!))) return tools.read(persisted[1]!);

    let finding = findFailure(view);
    if (!finding) {
      const expand = nextExpand(view);
      if (expand) return expand;
      if (!done((call) => tools.isShell(call, GREP_LOG)))
        return tools.shell(GREP_LOG, 'Find the failing test');
    }
    finding = findFailure(view);
    if (length === 'long' && !done((call) => tools.isShell(call, GREP_SYMBOL))) {
      return tools.shell(GREP_SYMBOL, 'Find readString');
    }
    const reads = view.calls.filter(
      (call) => !call.distil && call.output !== null && tools.isRead(call, SOURCE_PATH),
    );
    if (reads.length === 0) return tools.read(SOURCE_PATH);
    if (length === 'short') return { kind: 'final', text: answer(finding, null) };
    if (!done((call) => tools.isEdit(call, SOURCE_PATH)))
      return tools.edit(SOURCE_PATH, BUGGY_LOOP, FIXED_LOOP);
    if (reads.length === 1) return tools.read(SOURCE_PATH);
    const testRun = done((call) => tools.isShell(call, RUN_TESTS));
    if (!testRun) return tools.shell(RUN_TESTS, 'Run the tests');
    return { kind: 'final', text: answer(finding, testRun.output) };
  };
}

/**
 * The distil_expand calls for the folds most likely to hide the failure, in one reply, or null. A model
 * reads a stub's surroundings: the folds after the test step's start are the suspects (all folds when
 * none is), and it asks for all of them at once — both agents let the model call tools in parallel
 * (Codex sends `parallel_tool_calls: true`) — each handle once per session.
 */
function nextExpand(view: ConversationView): ScriptedReply | null {
  if (!view.offeredTools.has('distil_expand')) return null;
  const expanded = new Set(
    view.calls
      .filter((call) => call.name === 'distil_expand')
      .map((call) => (call.input as { handle?: unknown } | null)?.handle),
  );
  const candidates: { handle: string; afterTests: boolean }[] = [];
  for (const call of view.calls) {
    if (call.distil || call.output === null) continue;
    const testsStart = call.output.indexOf('node --test');
    for (const stub of findStubs(call.output)) {
      if (expanded.has(stub.handle) || candidates.some((c) => c.handle === stub.handle)) continue;
      candidates.push({ handle: stub.handle, afterTests: testsStart !== -1 && stub.index > testsStart });
    }
  }
  const suspects = candidates.some((c) => c.afterTests) ? candidates.filter((c) => c.afterTests) : candidates;
  const [first, ...rest] = suspects.map((c) => ({ name: 'distil_expand', input: { handle: c.handle } }));
  return first ? { kind: 'tool', ...first, more: rest } : null;
}

function answer(finding: FailureFinding | null, testRun: string | null): string {
  if (!finding) return 'I could not find the failing test in the CI log.';
  const found = `The CI job fails in "${finding.testName}" at ${finding.location} (AssertionError).`;
  if (testRun === null) return found;
  const pass = /ℹ pass (\d+)/.exec(testRun)?.[1];
  const fail = /ℹ fail (\d+)/.exec(testRun)?.[1];
  const tests =
    pass && fail ? `node --test now reports ${pass} pass, ${fail} fail.` : 'the test run printed no summary.';
  return `${found} Fixed readString in ${SOURCE_PATH} to keep backslash-escaped characters; ${tests}`;
}
