import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCiLog, type CiLog } from './ci-log.js';
import {
  FAILING_TEST,
  failingAssertionLine,
  SOURCE_PATH,
  TEST_PATH,
  TOKENIZE_SOURCE,
  TOKENIZE_TEST,
} from './lexer-project.js';

/** Where the CI log sits in the workspace (as if downloaded from the failed job). */
export const CI_LOG_PATH = 'ci/test-20.x.log';

/** What the CI log says about the failure: what an answer must name and what compression must keep. */
export interface FailureFacts {
  readonly testName: string;
  /** `test/tokenize.test.js:27`: the failing assertion's file and line. */
  readonly location: string;
  /** Text each of which must stay visible (or be expanded) for the failure to be found. */
  readonly keyLines: readonly string[];
}

/** A prepared workspace, copied afresh for every run so each agent starts from the same files. */
export interface WorkspaceTemplate {
  readonly dir: string;
  readonly ciLog: CiLog;
  readonly facts: FailureFacts;
}

/**
 * Writes the lexer project and its CI log under `dir`. The failing part of the log is the real output of
 * `node --test` on the buggy module (paths rewritten to the CI runner's checkout), so the failure lines
 * are what Node prints, not a hand-made imitation.
 */
export function prepareWorkspace(dir: string): WorkspaceTemplate {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  mkdirSync(join(dir, 'ci'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'lexer', type: 'module', private: true }, null, 2)}\n`,
  );
  writeFileSync(join(dir, SOURCE_PATH), TOKENIZE_SOURCE);
  writeFileSync(join(dir, TEST_PATH), TOKENIZE_TEST);
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', TEST_PATH], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  if (!run.stdout.includes(FAILING_TEST)) {
    throw new Error(
      `node --test did not report the planted failure: ${run.stdout.slice(0, 400)} ${run.stderr}`,
    );
  }
  // Durations differ run to run; the log is made once per template, so every agent reads the same bytes.
  const output = run.stdout.replaceAll(`file://${dir}`, 'file:///home/runner/work/lexer/lexer');
  const ciLog = buildCiLog({ failingFileOutput: output });
  writeFileSync(join(dir, CI_LOG_PATH), ciLog.text);
  const location = `${TEST_PATH}:${failingAssertionLine()}`;
  const facts: FailureFacts = {
    testName: FAILING_TEST,
    location,
    keyLines: [
      `✖ ${FAILING_TEST}`,
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      `${location}:`,
      'ℹ fail 1',
      '##[error]Process completed with exit code 1.',
    ],
  };
  for (const needle of facts.keyLines) {
    if (!ciLog.text.includes(needle))
      throw new Error(`the CI log lacks its key line ${JSON.stringify(needle)}`);
  }
  return { dir, ciLog, facts };
}

/** Copies a prepared workspace to `dir` (a fresh working tree for one agent run). */
export function cloneWorkspace(template: WorkspaceTemplate, dir: string): string {
  cpSync(template.dir, dir, { recursive: true });
  return dir;
}
