import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { pyProject } from '../python-flavour.js';
import { sgr } from '../text-layout.js';
import { PYTHON_VERSIONS } from '../vocab-ecosystems.js';
import { ORGS, projectName } from '../vocab-words.js';
import { renderJestRun } from './jest.js';
import { renderNpmInstall } from './npm-install.js';
import { renderPipInstall } from './pip-install.js';
import { renderPytestRun } from './pytest.js';

/**
 * Travis CI job logs: `travis_fold`/`travis_time` markers with their `\r` + erase-line escapes, colour
 * codes, the worker and build-system preamble, clone, language setup, install and script phases, and the
 * `The command … exited with N.` verdicts. Kept lines: the test runner's decisive lines, the failing
 * command's verdict and the final `Done. Your build exited with 1.`
 */

const ERASE = `\r${'\u001b'}[0K`;

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const js = index % 2 === 1;
  const slug = `${rng.pick(ORGS)}/${projectName(rng)}`;
  const fold = (name: string, title: string | null, body: () => void): void => {
    out.add(`travis_fold:start:${name}${ERASE}${title ? `${sgr('33;1')}${title}${sgr('0')}` : ''}`);
    body();
    out.add(`travis_fold:end:${name}${ERASE}`);
  };
  const timed = (cmd: string, body: () => number): number => {
    const id = rng.hex(8);
    const start = BigInt(clock.epochMs) * 1_000_000n + BigInt(rng.int(0, 999_999));
    out.add(`travis_time:start:${id}${ERASE}$ ${cmd}`);
    const code = body();
    clock.tick(rng, 200, 90_000);
    const finish = BigInt(clock.epochMs) * 1_000_000n + BigInt(rng.int(0, 999_999));
    out.add(
      `${ERASE}travis_time:end:${id}:start=${start},finish=${finish},duration=${finish - start},event=${rng.pick(['script', 'install', 'before_install'])}${ERASE}`,
    );
    return code;
  };
  fold('worker_info', 'Worker information', () => {
    out.add(`hostname: ${rng.uuid()}@1.worker-com-${rng.alnum(8)}.gce-production-${rng.int(1, 4)}`);
    out.add(`version: v6.2.${rng.int(0, 30)} https://github.com/travis-ci/worker/tree/${rng.hex(40)}`);
    out.add(
      `instance: travis-job-${rng.uuid()} travis-ci-${rng.pick(['sardonyx', 'garnet', 'focal'])}-${rng.pick(['xenial', 'bionic', 'focal'])}-${rng.int(1_500_000_000, 1_700_000_000)}-${rng.hex(7)} (via amqp)`,
    );
    out.add(`startup: ${rng.float(4, 30).toFixed(9)}s`);
  });
  fold('system_info', 'Build system information', () => {
    out.add(`Build language: ${js ? 'node_js' : 'python'}`);
    out.add('Build group: stable');
    out.add(`Build dist: ${rng.pick(['xenial', 'bionic', 'focal'])}`);
    const build = rng.int(100_000_000, 600_000_000);
    out.add(`Build id: ${build}`);
    out.add(`Job id: ${build + rng.int(1, 9)}`);
    out.add(`Runtime kernel version: ${rng.pick(['4.15.0-1028-gcp', '5.4.0-1043-gcp'])}`);
    out.add(`travis-build version: ${rng.hex(9)}`);
    out.add(`${sgr('34')}${sgr('1')}Build image provisioning date and time${sgr('0')}`);
    out.add(clock.dateCommand());
    out.add(`${sgr('34')}${sgr('1')}Operating System Details${sgr('0')}`);
    out.add('Distributor ID:\tUbuntu');
    out.add(`Description:\tUbuntu ${rng.pick(['16.04.6 LTS', '18.04.5 LTS', '20.04.2 LTS'])}`);
    for (const tool of rng.sample(
      [
        'git version',
        'bash version',
        'gcc version',
        'docker version',
        'clang version',
        'jq version',
        'shellcheck version',
        'ccache version',
        'cmake version',
        'heroku version',
        'mongodb version',
        'go version',
        'gradle version',
        'maven version',
        'mysql version',
        'postgresql version',
        'redis-server version',
      ],
      rng.int(4, 14),
    )) {
      out.add(`${sgr('34')}${sgr('1')}${tool}${sgr('0')}`);
      out.add(`${tool.split(' ')[0]} ${rng.int(0, 9)}.${rng.int(0, 30)}.${rng.int(0, 9)}`);
    }
  });
  out.add('');
  fold('git.checkout', null, () => {
    timed(
      `git clone --depth=50 --branch=${rng.pick(['master', 'main', 'develop'])} https://github.com/${slug}.git ${slug}`,
      () => {
        out.add(`Cloning into '${slug}'...`);
        return 0;
      },
    );
  });
  out.add(`$ cd ${slug}`);
  out.add(`$ git checkout -qf ${rng.hex(40)}`);
  const version = js ? `${rng.int(8, 14)}` : rng.pick(PYTHON_VERSIONS).split('.').slice(0, 2).join('.');
  if (js) {
    out.add(`$ nvm install ${version}`);
    out.add(`Downloading and installing node v${version}.${rng.int(0, 20)}.${rng.int(0, 9)}...`);
    out.add(
      `Now using node v${version}.${rng.int(0, 20)}.${rng.int(0, 9)} (npm v${rng.int(5, 6)}.${rng.int(0, 14)}.${rng.int(0, 9)})`,
    );
  } else {
    out.add(`$ source ~/virtualenv/python${version}/bin/activate`);
    out.add(`$ python --version`);
    out.add(`Python ${version}.${rng.int(0, 12)}`);
    out.add('$ pip --version');
    out.add(
      `pip ${rng.int(18, 23)}.${rng.int(0, 3)} from /home/travis/virtualenv/python${version}/lib/python${version}/site-packages/pip (python ${version})`,
    );
  }
  fold('install', null, () => {
    timed(js ? 'npm install' : 'pip install -r requirements.txt', () => {
      if (js)
        renderNpmInstall(rng, out, {
          scale: 'small',
          outcome: 'ok',
          root: `/home/travis/build/${slug}`,
          project: slug.split('/')[1]!,
          clock,
        });
      else
        renderPipInstall(rng, out, {
          scale: 'small',
          outcome: 'ok',
          python: `${version}.1`,
          bars: false,
          redraws: false,
        });
      return 0;
    });
  });
  out.add('');
  const cmd = js ? 'npm test' : 'pytest';
  let failed = false;
  timed(cmd, () => {
    if (js) failed = renderJestRun(rng, out, scale, false, rng.chance(0.8)).failedSuites > 0;
    else
      failed =
        renderPytestRun(rng, out, {
          scale,
          width: 80,
          project: pyProject(rng, `${version}.1`, {
            name: slug.split('/')[1]!,
            rootdir: `/home/travis/build/${slug}`,
          }),
          result: rng.chance(0.8) ? 'fail' : 'pass',
        }).exitCode !== 0;
    return failed ? 1 : 0;
  });
  out.add('');
  out.add(
    `${sgr(failed ? '31;1' : '32;1')}The command "${cmd}" exited with ${failed ? 1 : 0}.${sgr('0')}`,
    failed,
  );
  if (rng.chance(0.4)) {
    fold('after_failure.1', null, () => {
      out.add(`$ cat ${js ? 'npm-debug.log' : '.pytest_cache/v/cache/lastfailed'}`);
      out.add(js ? `cat: npm-debug.log: No such file or directory` : '{}');
    });
  }
  out.add('');
  out.add('');
  out.add(`Done. Your build exited with ${failed ? 1 : 0}.`, failed);
  const { text, keep } = out.finish();
  return {
    name: `travis-${String(index).padStart(2, '0')}-${js ? 'node' : 'python'}-${failed ? 'fail' : 'pass'}`,
    ext: 'log',
    kind: 'log',
    text,
    keep,
    task: failed ? 'find why the Travis build failed' : 'check whether the Travis build passed',
    why: failed
      ? "the script phase failed: the test runner's failing-test and summary lines, the command's exit verdict and the build's"
      : "the build passed: the runner's summary line",
  };
}

/** The ci-travis family. */
export const ciTravisFamily: Family = {
  name: 'ci-travis',
  scales: ['small', 'medium', 'large', 'small', 'medium', 'medium'],
  generate,
};
