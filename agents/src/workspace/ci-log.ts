import { Prng } from './prng.js';

/** A generated CI job log and the lines in it that say why the job failed. */
export interface CiLog {
  readonly text: string;
  readonly lineCount: number;
}

/** What to build a log around: the real output of the failing test file, from `node --test`. */
export interface CiLogInput {
  /** The spec-reporter output of the failing file, paths already rewritten to the runner's checkout. */
  readonly failingFileOutput: string;
  readonly seed?: number;
}

const CHECKOUT = '/home/runner/work/lexer/lexer';
const LINT_WARNINGS = 330;
const PACKAGES = [
  'acorn',
  'ansi-regex',
  'argparse',
  'balanced-match',
  'brace-expansion',
  'chalk',
  'cross-spawn',
  'debug',
  'deep-is',
  'escape-string-regexp',
  'eslint',
  'eslint-scope',
  'espree',
  'esquery',
  'esrecurse',
  'estraverse',
  'fast-deep-equal',
  'file-entry-cache',
  'find-up',
  'flat-cache',
  'glob-parent',
  'globals',
  'ignore',
  'imurmurhash',
  'is-extglob',
  'is-glob',
  'isexe',
  'js-yaml',
  'json-buffer',
  'keyv',
  'levn',
  'locate-path',
  'lodash.merge',
  'minimatch',
  'ms',
  'natural-compare',
  'optionator',
  'p-limit',
  'p-locate',
  'path-exists',
  'path-key',
  'prelude-ls',
  'punycode',
  'shebang-command',
  'shebang-regex',
  'strip-json-comments',
  'supports-color',
  'type-check',
  'uri-js',
  'which',
  'word-wrap',
  'yocto-queue',
  'c8',
  'istanbul-lib-coverage',
  'istanbul-reports',
  'v8-to-istanbul',
  'test-exclude',
  'yargs',
  'yargs-parser',
  'cliui',
  'string-width',
  'strip-ansi',
  'wrap-ansi',
  'y18n',
  'get-caller-file',
  'require-directory',
  'escalade',
  'foreground-child',
  'signal-exit',
  'rimraf',
  'fs.realpath',
  'inflight',
  'once',
  'wrappy',
  'inherits',
  'path-is-absolute',
];
const SUITES = [
  'glob',
  'expand',
  'history',
  'completion',
  'prompt',
  'alias',
  'redirect',
  'pipeline',
  'job-control',
  'heredoc',
  'arith',
  'quote',
  'parse',
  'env',
  'builtins',
  'path',
  'signals',
  'trap',
  'subshell',
  'functions',
];
const VERBS = [
  'handles',
  'expands',
  'rejects',
  'keeps',
  'reads',
  'writes',
  'splits',
  'joins',
  'resolves',
  'ignores',
];
const NOUNS = [
  'empty input',
  'nested braces',
  'trailing slashes',
  'unicode names',
  'long lines',
  'tabs',
  'a missing file',
  'relative paths',
  'duplicate keys',
  'the last argument',
  'escaped newlines',
  'numeric ranges',
  'a dangling pipe',
  'options after operands',
  'an empty variable',
  'a closed stdin',
  'CRLF endings',
  'globs with brackets',
];

function stamp(t: number): string {
  const d = new Date(Date.UTC(2026, 10, 28, 9, 14, 3) + t);
  return `${d.toISOString().slice(0, 19)}.${String(Math.floor((t * 7919) % 10_000_000)).padStart(7, '0')}Z`;
}

/**
 * A GitHub Actions job log (runner preamble, checkout, `npm ci --loglevel http`, the `node --test` run of
 * a whole suite with the real failing file spliced into the middle, then lint and cleanup that run
 * `if: always()`): about 1,800 lines, so the lines that matter sit far from both ends.
 */
export function buildCiLog(input: CiLogInput): CiLog {
  const rng = new Prng(input.seed ?? 14);
  const lines: string[] = [];
  let t = 0;
  const emit = (text: string): void => {
    t += rng.int(1, 40);
    lines.push(`${stamp(t)} ${text}`);
  };
  emit('##[group]Runner Image Provisioner');
  emit('Hosted Compute Agent');
  emit('Version: 20261117.431');
  emit('Commit: 5a1b9f0c2e7d4b8a96f3e1d0c4b7a2e9f8d6c5b4');
  emit('##[endgroup]');
  emit('##[group]Operating System');
  emit('Ubuntu');
  emit('24.04.3');
  emit('LTS');
  emit('##[endgroup]');
  emit('##[group]Runner Image');
  emit('Image: ubuntu-24.04');
  emit('Version: 20261123.1.0');
  emit(
    'Included Software: https://github.com/actions/runner-images/blob/ubuntu24/20261123.1/images/ubuntu/Ubuntu2404-Readme.md',
  );
  emit('##[endgroup]');
  emit('##[group]GITHUB_TOKEN Permissions');
  for (const scope of [
    'Actions',
    'Checks',
    'Contents',
    'Deployments',
    'Issues',
    'Metadata',
    'Packages',
    'Pages',
    'PullRequests',
    'Statuses',
  ]) {
    emit(`${scope}: ${scope === 'Metadata' || scope === 'Contents' ? 'read' : 'write'}`);
  }
  emit('##[endgroup]');
  emit('Secret source: Actions');
  emit('Prepare workflow directory');
  emit('Prepare all required actions');
  emit('Getting action download info');
  emit("Download action repository 'actions/checkout@v5' (SHA:08c6903cd8c0fde910a37f88322edcfb5dd907a8)");
  emit("Download action repository 'actions/setup-node@v5' (SHA:a0853c24544627f65ddf259abe73b1d18a591444)");
  emit('Complete job name: test (20.x)');
  emit('##[group]Run actions/checkout@v5');
  emit('with:');
  emit('  repository: acme/lexer');
  emit('  fetch-depth: 1');
  emit('##[endgroup]');
  emit('Syncing repository: acme/lexer');
  emit('##[group]Getting Git version info');
  emit(`Working directory is '${CHECKOUT}'`);
  emit('[command]/usr/bin/git version');
  emit('git version 2.52.0');
  emit('##[endgroup]');
  emit(`[command]/usr/bin/git init ${CHECKOUT}`);
  emit('[command]/usr/bin/git remote add origin https://github.com/acme/lexer');
  emit(
    '[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +3f2c9a7e:refs/remotes/pull/214/merge',
  );
  for (let i = 0; i < 6; i++)
    emit(`remote: Counting objects: ${Math.min(100, 17 * (i + 1))}% (${i * 11}/${66})`);
  emit('[command]/usr/bin/git checkout --progress --force refs/remotes/pull/214/merge');
  emit('HEAD is now at 3f2c9a7 Merge 8d41e02 into 1c7b5f3');
  emit('##[group]Run actions/setup-node@v5');
  emit('with:');
  emit('  node-version: 20.x');
  emit('  cache: npm');
  emit('##[endgroup]');
  emit('Found in cache @ /opt/hostedtoolcache/node/20.20.2/x64');
  emit('[command]/opt/hostedtoolcache/node/20.20.2/x64/bin/npm config get cache');
  emit('/home/runner/.npm');
  emit('Cache hit for: node-cache-Linux-x64-npm-9f8e7d6c5b4a39281706f5e4d3c2b1a0');
  emit('Received 24117248 of 24117248 (100.0%), 31.2 MBs/sec');
  emit('Cache restored successfully');

  emit('##[group]Run npm ci --loglevel http');
  emit('npm ci --loglevel http');
  emit('shell: /usr/bin/bash -e {0}');
  emit('##[endgroup]');
  for (let i = 0; i < 330; i++) {
    const name = rng.pick(PACKAGES);
    const version = `${rng.int(0, 9)}.${rng.int(0, 24)}.${rng.int(0, 12)}`;
    const cached = rng.next() < 0.7;
    emit(
      `npm http fetch GET 200 https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz ${rng.int(2, 180)}ms${cached ? ' (cache hit)' : ' (cache miss)'}`,
    );
    if (rng.next() < 0.03)
      emit(
        `npm warn deprecated ${name}@${version}: This version is no longer supported. Upgrade to the latest release.`,
      );
  }
  emit('');
  emit(
    `added ${rng.int(300, 420)} packages, and audited ${rng.int(421, 440)} packages in ${rng.int(9, 30)}s`,
  );
  emit('');
  emit(`${rng.int(60, 90)} packages are looking for funding`);
  emit('  run `npm fund` for details');
  emit('');
  emit('found 0 vulnerabilities');

  emit('##[group]Run node --test --test-reporter=spec test/');
  emit('node --test --test-reporter=spec test/');
  emit('shell: /usr/bin/bash -e {0}');
  emit('##[endgroup]');
  let tests = 0;
  let passed = 0;
  const suiteBlock = (suite: string, count: number): void => {
    emit(`▶ ${suite}`);
    for (let i = 0; i < count; i++) {
      emit(
        `  ✔ ${rng.pick(VERBS)} ${rng.pick(NOUNS)}${rng.next() < 0.3 ? ` in ${rng.pick(SUITES)} mode` : ''} (${(rng.next() * 3).toFixed(6)}ms)`,
      );
      tests++;
      passed++;
    }
    emit(`✔ ${suite} (${(rng.next() * 40 + 5).toFixed(6)}ms)`);
  };
  const failing = input.failingFileOutput.split('\n');
  const summaryAt = failing.findIndex((line) => line.startsWith('ℹ tests'));
  const failingSuites = failing.slice(0, summaryAt === -1 ? failing.length : summaryAt);
  const failingTail = failing.slice(failing.findIndex((line) => line.startsWith('✖ failing tests:')));
  const suitesBefore = 30;
  const suitesAfter = 32;
  for (let s = 0; s < suitesBefore; s++) suiteBlock(`${rng.pick(SUITES)} ${rng.pick(NOUNS)}`, rng.int(8, 20));
  for (const line of failingSuites) {
    if (line.trim() === '') emit('');
    else emit(line);
    if (/^\s+✔ /.test(line)) {
      tests++;
      passed++;
    } else if (/^\s+✖ /.test(line)) tests++;
  }
  for (let s = 0; s < suitesAfter; s++) suiteBlock(`${rng.pick(SUITES)} ${rng.pick(NOUNS)}`, rng.int(8, 20));
  emit(`ℹ tests ${tests}`);
  emit(`ℹ suites ${suitesBefore + suitesAfter + 1}`);
  emit(`ℹ pass ${passed}`);
  emit(`ℹ fail ${tests - passed}`);
  emit('ℹ cancelled 0');
  emit('ℹ skipped 0');
  emit('ℹ todo 0');
  emit(`ℹ duration_ms ${(rng.next() * 2000 + 3000).toFixed(6)}`);
  emit('');
  for (const line of failingTail) emit(line);
  emit('##[error]Process completed with exit code 1.');

  emit('##[group]Run npx eslint --format unix .');
  emit('npx eslint --format unix .');
  emit('shell: /usr/bin/bash -e {0}');
  emit('##[endgroup]');
  const rules = ['no-unused-vars', 'prefer-const', 'no-useless-escape', 'eqeqeq', 'no-shadow', 'curly'];
  for (let i = 0; i < LINT_WARNINGS; i++) {
    const file = `src/${rng.pick(SUITES)}.js`;
    emit(
      `${CHECKOUT}/${file}:${rng.int(1, 400)}:${rng.int(1, 60)}: '${rng.pick(NOUNS).split(' ').pop()}' is flagged by ${rng.pick(rules)}. [Warning/${rng.pick(rules)}]`,
    );
  }
  emit('');
  emit(`${LINT_WARNINGS} problems (0 errors, ${LINT_WARNINGS} warnings)`);
  emit('Post job cleanup.');
  emit('[command]/usr/bin/git version');
  emit('git version 2.52.0');
  emit(
    `Temporarily overriding HOME='/home/runner/work/_temp/4b0c9d2e' before making global git config changes`,
  );
  emit(`[command]/usr/bin/git config --global --add safe.directory ${CHECKOUT}`);
  emit('[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand');
  emit('[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader');
  emit('Cleaning up orphan processes');
  const text = `${lines.join('\n')}\n`;
  return { text, lineCount: lines.length };
}
