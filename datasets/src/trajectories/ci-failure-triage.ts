import { Clock } from '../clock.js';
import { ciGithubActionsFamily } from '../families/ci-github-actions.js';
import { jsonApiFamily } from '../families/json-api.js';
import type { Rng } from '../prng.js';
import { commitSubject, person } from '../vocab-words.js';
import type { TrajectoryBuilder } from './catalog.js';
import { TurnLog } from './turn-log.js';

/**
 * CI triage: list the workflow runs, open the failed run's log, look at the history of the file the
 * traceback blames, and decide whether the failure is a real regression. The run id, the failing test,
 * the blamed file and the commit all come out of the generated outputs, so each decision quotes tokens
 * the agent actually saw.
 */

const SYSTEM = `You are a CI triage agent for the backend repositories.

Tools:
- gh(args): run the GitHub CLI (read-only) and return its output.
- bash(command): run a read-only shell command in a checkout of the repository.

For a red build decide: flaky test, infrastructure problem, or real regression. A real regression needs the
failing test, the file and line that raise, and the commit that most likely introduced it.`;

/** The kept lines of a labelled text, with any CI timestamp prefix removed. */
function keptLines(text: string, keep: readonly number[]): string[] {
  const lines = text.split('\n');
  return keep.map((n) => lines[n - 1]!.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''));
}

function build(rng: Rng): ReturnType<TrajectoryBuilder['build']> {
  const runs = jsonApiFamily.generate(rng.fork('runs'), 'small', 0);
  const runId = /"id": (\d+)/.exec(keptLines(runs.text, runs.keep).join('\n'))?.[1];
  if (!runId) throw new Error('the runs listing has no failed run');
  const repo =
    /"url": "https:\/\/api\.github\.com\/repos\/([^/]+\/[^/]+)\//.exec(runs.text)?.[1] ?? 'acme/service';
  // Index 1 of the CI family is a Python job; keep drawing until the job failed in a project frame.
  let log = ciGithubActionsFamily.generate(rng.fork('log-0'), 'medium', 1);
  for (let i = 1; i < 20 && !/FAILED /.test(log.text); i++)
    log = ciGithubActionsFamily.generate(rng.fork(`log-${i}`), 'medium', 1);
  const kept = keptLines(log.text, log.keep);
  const failed =
    kept.find((l) => l.startsWith('FAILED ')) ??
    kept.find((l) => l.startsWith('ERROR ')) ??
    'FAILED tests/test_app.py::test_smoke - AssertionError';
  const testId = failed.split(' ')[1]!;
  const frame = kept
    .map((l) => /^((?:src\/)?[\w/]+\.py):(\d+)/.exec(l))
    .find((m) => m && !m[1]!.startsWith('tests'));
  const blamed = frame ? frame[1]! : testId.split('::')[0]!;
  const message =
    kept.find((l) => l.startsWith('E '))?.replace(/^E\s+/, '') ?? failed.slice(failed.indexOf(' - ') + 3);
  const line = frame ? frame[2]! : '1';

  // History ends shortly before the first listed run, so the culprit predates the red build.
  const firstRun = /"created_at": "([^"]+)"/.exec(runs.text)?.[1];
  const clock = firstRun ? new Clock(Date.parse(firstRun) - rng.int(600_000, 7_200_000)) : Clock.within(rng);
  const commits = Array.from({ length: rng.int(5, 9) }, () => {
    clock.rewind(rng.int(3_600_000, 4 * 86_400_000));
    return { sha: rng.hex(7), subject: commitSubject(rng), who: person(rng).name, when: clock.isoSeconds() };
  });
  const culprit = commits[0]!;
  const gitLog = commits.map((c) => `${c.sha} ${c.when} ${c.who.padEnd(18)} ${c.subject}`).join('\n');

  const t = new TurnLog();
  t.system(SYSTEM)
    .user('task', `The main branch of ${repo} has been red since this morning. Triage it.`)
    .call('gh', {
      args: `run list --repo ${repo} --branch main --limit 20 --json databaseId,name,headBranch,headSha,conclusion`,
    });
  t.tool('obs-0', 'gh', 'json', runs.text).call('gh', {
    args: `run view ${runId} --repo ${repo} --log-failed`,
  });
  t.note('note-1', `Run ${runId} on main concluded with failure. Reading its failed-step log.`)
    .tool('obs-1', 'gh', 'log', log.text)
    .call('bash', { command: `git log -n ${commits.length} --format='%h %cI %an %s' -- ${blamed}` });
  t.note('note-2', `${testId} fails in ${blamed}:${line}. Checking who touched ${blamed} recently.`)
    .tool('obs-2', 'bash', 'tool_output', gitLog)
    .final(
      `Real regression, not a flake: ${testId} fails deterministically in run ${runId} (${message}); the raising frame is ${blamed}:${line}. The last change to ${blamed} is ${culprit.sha} "${culprit.subject}" by ${culprit.who} (${culprit.when}). Assigning to them and proposing a revert of ${culprit.sha} if a fix is not ready within the hour.`,
    );
  return t.finish('ci-failure-triage', 'datasets/generate.ts', null);
}

/** CI failure triage. */
export const ciFailureTriage: TrajectoryBuilder = { id: 'ci-failure-triage', build };
