import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { pyProject } from '../python-flavour.js';
import { humanBytes } from '../text-layout.js';
import { NODE_VERSIONS, PYTHON_VERSIONS } from '../vocab-ecosystems.js';
import { ORGS, projectName } from '../vocab-words.js';
import { renderJestRun } from './jest.js';
import { renderNpmInstall } from './npm-install.js';
import { renderPipInstall } from './pip-install.js';
import { renderPytestRun } from './pytest.js';

/**
 * GitHub Actions job logs: every line stamped with the runner's 7-digit timestamp, `##[group]` blocks,
 * the runner preamble, checkout with its temporary-HOME UUID, toolchain setup, cache restores with
 * progress, `##[debug]` lines full of ids, an install step and a test step (pytest or jest rendered in
 * place), deprecation warnings and post-job cleanup. Kept lines: the test runner's decisive lines (see
 * pytest.ts and jest.ts) and the `##[error]` lines that end the failing step.
 */

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const stamp = (): string => `${clock.tick(rng, 0, 40).actions()} `;
  const js = index % 2 === 0;
  const org = rng.pick(ORGS);
  const repo = projectName(rng);
  const work = `/home/runner/work/${repo}/${repo}`;
  const debug = rng.chance(0.3);
  const say = (s: string, keep = false): number => out.add(`${stamp()}${s}`, keep);
  const group = (title: string, body: () => void): void => {
    say(`##[group]${title}`);
    body();
    say('##[endgroup]');
  };

  say('Requested labels: ubuntu-latest');
  say(
    `Job defined at: ${org}/${repo}/.github/workflows/${rng.pick(['ci.yml', 'test.yml', 'build.yml'])}@refs/${rng.chance(0.6) ? 'heads/main' : `pull/${rng.int(10, 4000)}/merge`}`,
  );
  say('Waiting for a runner to pick up this job...');
  clock.tick(rng, 1000, 30_000);
  say(`Job is about to start running on the hosted runner: GitHub Actions ${rng.int(1, 400)} (hosted)`);
  say(`Current runner version: '2.${rng.int(300, 321)}.${rng.int(0, 3)}'`);
  group('Operating System', () => {
    say('Ubuntu');
    say(rng.pick(['22.04.5', '24.04.1']));
    say('LTS');
  });
  group('Runner Image', () => {
    const v = `${rng.int(2024, 2025)}${String(rng.int(1, 12)).padStart(2, '0')}${String(rng.int(1, 28)).padStart(2, '0')}.${rng.int(1, 9)}.${rng.int(1, 3)}`;
    say(`Image: ubuntu-${rng.pick(['22.04', '24.04'])}`);
    say(`Version: ${v}`);
    say(
      `Included Software: https://github.com/actions/runner-images/blob/ubuntu24/${v}/images/ubuntu/Ubuntu2404-Readme.md`,
    );
    say(`Image Release: https://github.com/actions/runner-images/releases/tag/ubuntu24%2F${v}`);
  });
  group('GITHUB_TOKEN Permissions', () => {
    for (const p of [
      'Actions: read',
      'Checks: write',
      'Contents: read',
      'Metadata: read',
      'PullRequests: write',
      'Statuses: write',
    ])
      say(p);
  });
  say('Secret source: Actions');
  say('Prepare workflow directory');
  say('Prepare all required actions');
  say('Getting action download info');
  const actions = js
    ? ['actions/checkout@v4', 'actions/setup-node@v4', 'actions/cache@v4']
    : ['actions/checkout@v4', 'actions/setup-python@v5', 'actions/cache@v4'];
  for (const a of actions) say(`Download action repository '${a}' (SHA:${rng.hex(40)})`);
  if (debug)
    for (let k = rng.int(3, 12); k > 0; k--)
      say(
        `##[debug]${rng.pick(['Evaluating condition for step:', 'Request id:', 'Starting: ', 'Finishing: '])} ${rng.pick([rng.uuid(), `'${rng.pick(['Checkout', 'Setup', 'Install', 'Test'])}'`])}`,
      );
  say('Complete job name: test');

  group('Run actions/checkout@v4', () => {
    say('with:');
    say(`  repository: ${org}/${repo}`);
    say('  token: ***');
    say('  ssh-strict: true');
    say('  persist-credentials: true');
    say('  clean: true');
    say('  fetch-depth: 1');
    say('  lfs: false');
    say('  submodules: false');
  });
  say(`Syncing repository: ${org}/${repo}`);
  group('Getting Git version info', () => {
    say(`Working directory is '${work}'`);
    say('[command]/usr/bin/git version');
    say(`git version 2.${rng.int(40, 47)}.${rng.int(0, 2)}`);
  });
  say(
    `Temporarily overriding HOME='/home/runner/work/_temp/${rng.uuid()}' before making global git config changes`,
  );
  say('Adding repository directory to the temporary git global config as a safe directory');
  say(`[command]/usr/bin/git config --global --add safe.directory ${work}`);
  group('Fetching the repository', () => {
    const sha = rng.hex(40);
    say(
      `[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +${sha}:refs/remotes/origin/main`,
    );
    say(`From https://github.com/${org}/${repo}`);
    say(` * [new ref]         ${sha} -> origin/main`);
  });
  group('Checking out the ref', () =>
    say('[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main'),
  );

  const toolVersion = js ? rng.pick(NODE_VERSIONS).slice(1) : rng.pick(PYTHON_VERSIONS);
  group(`Run ${actions[1]}`, () => {
    say('with:');
    say(
      js
        ? `  node-version: ${toolVersion.split('.')[0]}`
        : `  python-version: ${toolVersion.split('.').slice(0, 2).join('.')}`,
    );
    say(`  cache: ${js ? 'npm' : 'pip'}`);
  });
  say(`Found in cache @ /opt/hostedtoolcache/${js ? 'node' : 'Python'}/${toolVersion}/x64`);
  if (rng.chance(0.4))
    say(
      `##[warning]The \`set-output\` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/`,
    );
  group(`Run ${actions[2]}`, () => {
    say('with:');
    say(`  path: ${js ? '~/.npm' : '~/.cache/pip'}`);
    say(`  key: ${rng.pick(['Linux', 'linux'])}-${js ? 'npm' : 'pip'}-${rng.hex(64)}`);
  });
  const size = rng.int(20_000_000, 600_000_000);
  say(`Cache Size: ~${Math.round(size / 1_048_576)} MB (${size} B)`);
  say(
    `[command]/usr/bin/tar -xf /home/runner/work/_temp/${rng.uuid()}/cache.tzst -P -C ${work} --use-compress-program unzstd`,
  );
  let got = 0;
  while (got < size) {
    got = Math.min(size, got + rng.int(8_388_608, 60_000_000));
    say(
      `Received ${got} of ${size} (${((got * 100) / size).toFixed(1)}%), ${(rng.float(8, 90)).toFixed(1)} MBs/sec`,
    );
  }
  say(`Cache restored successfully (${humanBytes(size)})`);

  const failing = rng.chance(0.8);
  let stepFailed = false;
  group(js ? 'Run npm ci' : 'Run pip install -r requirements-dev.txt', () => {
    say(`${js ? 'npm ci' : 'pip install -r requirements-dev.txt'}`);
    say(`shell: /usr/bin/bash -e {0}`);
  });
  out.setPrefix(stamp);
  if (js) renderNpmInstall(rng, out, { scale: 'small', outcome: 'ok', root: work, project: repo, clock });
  else
    renderPipInstall(rng, out, {
      scale: scale === 'small' ? 'small' : 'medium',
      outcome: 'ok',
      python: toolVersion,
      bars: false,
      redraws: false,
    });
  out.setPrefix(null);
  const testCmd = js ? 'npm test -- --ci' : `pytest ${rng.pick(['-q', '-v', '--cov=src'])}`;
  group(`Run ${testCmd}`, () => {
    say(testCmd);
    say('shell: /usr/bin/bash -e {0}');
    say('env:');
    say(
      `  ${js ? 'NODE_OPTIONS: --max-old-space-size=4096' : `pythonLocation: /opt/hostedtoolcache/Python/${toolVersion}/x64`}`,
    );
  });
  out.setPrefix(stamp);
  if (js) {
    const run = renderJestRun(rng, out, scale, false, failing);
    stepFailed = run.failedSuites > 0;
  } else {
    const run = renderPytestRun(rng, out, {
      scale,
      width: rng.pick([80, 120, 200]),
      result: failing ? 'fail' : 'pass',
      project: pyProject(rng, toolVersion, { name: repo, rootdir: work }),
    });
    stepFailed = run.exitCode !== 0;
  }
  out.setPrefix(null);
  if (stepFailed) say('##[error]Process completed with exit code 1.', true);
  say('Post job cleanup.');
  if (debug) say(`##[debug]Request id: ${rng.uuid()}`);
  say('[command]/usr/bin/git version');
  say(`git version 2.${rng.int(40, 47)}.${rng.int(0, 2)}`);
  say(
    `Temporarily overriding HOME='/home/runner/work/_temp/${rng.uuid()}' before making global git config changes`,
  );
  say(
    '[command]/usr/bin/git config --local --name-only --get-regexp http\\.https\\:\\/\\/github\\.com\\/\\.extraheader',
  );
  say('http.https://github.com/.extraheader');
  say('Cleaning up orphan processes');
  const { text, keep } = out.finish();
  return {
    name: `gha-${String(index).padStart(2, '0')}-${js ? 'node' : 'python'}-${stepFailed ? 'fail' : 'pass'}`,
    ext: 'log',
    kind: 'log',
    text,
    keep,
    task: stepFailed ? 'find why the CI job failed' : 'check whether CI passed',
    why: stepFailed
      ? "the test step failed: the runner's failing-test, assertion and summary lines, and the ##[error] exit line"
      : "the job passed: the test runner's summary line",
  };
}

/** The ci-github-actions family. */
export const ciGithubActionsFamily: Family = {
  name: 'ci-github-actions',
  scales: ['medium', 'small', 'large', 'medium', 'small', 'medium', 'large', 'small'],
  generate,
};
