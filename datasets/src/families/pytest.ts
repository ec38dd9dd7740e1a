import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { type PyProject, paramId, pyProject, testName } from '../python-flavour.js';
import { banner, rightAlign, shortSummaryLine } from '../text-layout.js';
import { PYPI_PACKAGES, PYTHON_VERSIONS, pyMinor, versionOf } from '../vocab-ecosystems.js';
import { NOUNS, pascal, phrase, QUALIFIERS } from '../vocab-words.js';
import { nodeId, type PyFailingTest, renderPytestFailure } from './pytest-failure.js';

/**
 * pytest sessions: quiet dot progress, `-v` listings or xdist workers, with assertion failures, errors in
 * project code, library errors, collection errors, captured logs, warnings, coverage and durations.
 * Kept lines: every failure block's decisive lines (see pytest-failure.ts), collection errors, the
 * `FAILED`/`ERROR` lines of the short summary and the final counts line.
 */

interface PyTest {
  file: string;
  cls: string | null;
  name: string;
  param: string;
  outcome: '.' | 'F' | 's' | 'x' | 'E';
}

const SCALE_TESTS: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [4, 40],
  medium: [60, 300],
  large: [400, 900],
  huge: [1900, 2700],
};

/** Options for one run. */
export interface PytestRunOptions {
  readonly scale: Scale;
  readonly width: number;
  /** Force a result: 'fail' has at least one failure, 'pass' none. */
  readonly result?: 'pass' | 'fail' | 'collection-error';
  readonly project?: PyProject;
  readonly mode?: PytestMode;
}

/** How progress is printed: dots, one line per test (`-v`), or xdist workers (`-n`). */
export type PytestMode = 'quiet' | 'verbose' | 'xdist';

/** The progress mode a run of this scale would plausibly use. */
export function pickPytestMode(rng: Rng, scale: Scale): PytestMode {
  if (scale === 'huge' || (scale === 'large' && rng.chance(0.6))) return 'verbose';
  return rng.weighted([
    ['quiet', 6],
    ['verbose', 2],
    ['xdist', 2],
  ] as const);
}

/** A command line that produces the given mode. */
export function pytestCommand(rng: Rng, mode: PytestMode): string {
  if (mode === 'verbose')
    return rng.pick(['pytest -v', 'python -m pytest -v', 'poetry run pytest -vv', 'pytest -v --tb=short']);
  if (mode === 'xdist')
    return rng.pick([
      'pytest -n auto',
      'pytest -n 4 -p no:cacheprovider',
      'python -m pytest -n auto --dist loadfile',
    ]);
  return rng.pick([
    'pytest',
    'pytest -q',
    'python -m pytest',
    'poetry run pytest',
    'pytest --cov=src',
    'tox -e py',
  ]);
}

/** What the run reported, for a CI log's summary. */
export interface PytestRunSummary {
  readonly failed: readonly string[];
  readonly exitCode: number;
  readonly summaryLine: string;
}

function makeTests(rng: Rng, project: PyProject, total: number): PyTest[] {
  const tests: PyTest[] = [];
  const dirs = rng.pick([
    ['tests'],
    ['tests/unit', 'tests/integration'],
    ['tests/unit', 'tests/api', 'tests/e2e'],
    [`${project.pkg}/tests`],
  ]);
  while (tests.length < total) {
    const file = `${rng.pick(dirs)}/test_${rng.pick(NOUNS)}${rng.chance(0.4) ? `_${rng.pick(QUALIFIERS)}` : ''}.py`;
    if (tests.some((t) => t.file === file)) continue;
    const n = Math.min(total - tests.length, Math.max(1, Math.round(rng.logNormal(14, 0.8))));
    const cls = rng.chance(0.35) ? `Test${pascal([rng.pick(NOUNS)])}` : null;
    for (let i = 0; i < n; i++) {
      const outcome = rng.weighted<PyTest['outcome']>([
        ['.', 200],
        ['s', 6],
        ['x', 2],
      ]);
      tests.push({
        file,
        cls: cls && rng.chance(0.85) ? cls : null,
        name: testName(rng),
        param: paramId(rng),
        outcome,
      });
    }
  }
  return tests;
}

function countsLine(counts: Record<string, number>, warnings: number, secs: number): string {
  const parts: string[] = [];
  const order: [string, string][] = [
    ['F', 'failed'],
    ['.', 'passed'],
    ['s', 'skipped'],
    ['x', 'xfailed'],
    ['E', 'errors'],
  ];
  for (const [k, label] of order) {
    const n = counts[k] ?? 0;
    if (n > 0) parts.push(`${n} ${k === 'E' && n === 1 ? 'error' : label}`);
  }
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  const whole = Math.floor(secs);
  const clock =
    whole >= 60
      ? ` (0:${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')})`
      : '';
  return `${parts.join(', ')} in ${secs.toFixed(2)}s${clock}`;
}

/** Writes a whole pytest session into `out` and returns what it reported. */
export function renderPytestRun(rng: Rng, out: LabelledText, opts: PytestRunOptions): PytestRunSummary {
  const python = opts.project?.python ?? rng.pick(PYTHON_VERSIONS);
  const project = opts.project ?? pyProject(rng, python);
  const width = opts.width;
  const pytestVersion = rng.pick(['7.4.4', '8.0.2', '8.1.1', '8.2.2', '8.3.3']);
  const mode = opts.mode ?? pickPytestMode(rng, opts.scale);
  const style: 'long' | 'short' = rng.chance(0.7) ? 'long' : 'short';
  const [lo, hi] = SCALE_TESTS[opts.scale];
  const tests = makeTests(rng, project, rng.int(lo, hi));
  const result =
    opts.result ??
    rng.weighted([
      ['fail', 8],
      ['pass', 1],
      ['collection-error', 1],
    ] as const);

  if (result === 'fail') {
    const nFail = rng.weighted([
      [1, 5],
      [2, 3],
      [3, 2],
      [rng.int(4, 9), 1],
    ] as const);
    for (const t of rng.sample(tests, nFail)) t.outcome = 'F';
    if (rng.chance(0.15)) rng.pick(tests).outcome = 'E';
  }

  out.add(banner('test session starts', '=', width));
  const interp = rng.pick([
    `/usr/local/bin/python${pyMinor(python)}`,
    `${project.rootdir}/.venv/bin/python`,
    `/opt/hostedtoolcache/Python/${python}/x64/bin/python`,
  ]);
  out.add(
    `platform linux -- Python ${python}, pytest-${pytestVersion}, pluggy-1.${rng.int(3, 5)}.0${mode === 'verbose' ? ` -- ${interp}` : ''}`,
  );
  if (mode === 'verbose') out.add('cachedir: .pytest_cache');
  out.add(`rootdir: ${project.rootdir}`);
  out.add(`configfile: ${rng.pick(['pyproject.toml', 'setup.cfg', 'pytest.ini', 'tox.ini'])}`);
  if (rng.chance(0.3)) out.add('testpaths: tests');
  const plugins = rng.sample(
    ['cov', 'asyncio', 'xdist', 'anyio', 'mock', 'timeout', 'django', 'freezegun', 'env', 'randomly'],
    rng.int(1, 5),
  );
  if (mode === 'xdist' && !plugins.includes('xdist')) plugins.push('xdist');
  out.add(`plugins: ${plugins.map((p) => `${p}-${versionOf(rng, rng.int(0, 4))}`).join(', ')}`);
  if (plugins.includes('asyncio'))
    out.add(`asyncio: mode=${rng.pick(['strict', 'Mode.STRICT', 'Mode.AUTO'])}`);
  if (plugins.includes('randomly')) out.add(`Using --randomly-seed=${rng.int(100_000, 4_294_967_295)}`);
  const workers = rng.pick([2, 4, 8]);
  if (mode === 'xdist') {
    out.add(`created: ${workers}/${workers} workers`);
    out.add(`${workers} workers [${tests.length} items]`);
  } else {
    out.add(
      `${mode === 'verbose' ? 'collecting ... ' : ''}collected ${tests.length} items${result === 'collection-error' ? ' / 1 error' : ''}`,
    );
  }
  out.add('');

  if (result === 'collection-error') {
    const file = rng.pick(tests).file;
    const missing = rng.pick([
      `${project.pkg}.${rng.pick(project.modules)}_v2`,
      rng.pick(['freezegun', 'respx', 'moto', 'hypothesis', 'factory_boy']),
    ]);
    out.add(banner('ERRORS', '=', width));
    out.add(banner(`ERROR collecting ${file}`, '_', width), true);
    out.add(`ImportError while importing test module '${project.rootdir}/${file}'.`, true);
    out.add('Hint: make sure your test modules/packages have valid Python names.');
    out.add('Traceback:');
    out.add(`/usr/local/lib/python${pyMinor(python)}/importlib/__init__.py:126: in import_module`);
    out.add('    return _bootstrap._gcd_import(name[level:], package, level)');
    out.add(`${file}:${rng.int(3, 14)}: in <module>`, true);
    out.add(
      `    from ${missing.includes('.') ? missing.split('.').slice(0, -1).join('.') : missing} import ${pascal([rng.pick(NOUNS)])}`,
      true,
    );
    out.add(`E   ModuleNotFoundError: No module named '${missing}'`, true);
    out.add(banner('short test summary info', '=', width));
    out.add(`ERROR ${file}`, true);
    out.add('!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!', true);
    const secs = rng.float(0.3, 4);
    const line = banner(`1 error in ${secs.toFixed(2)}s`, '=', width);
    out.add(line, true);
    return { failed: [file], exitCode: 2, summaryLine: line };
  }

  // Progress.
  const total = tests.length;
  const pct = (done: number): string => `[${String(Math.floor((done * 100) / total)).padStart(3, ' ')}%]`;
  const word: Record<PyTest['outcome'], string> = {
    '.': 'PASSED',
    F: 'FAILED',
    s: 'SKIPPED',
    x: 'XFAIL',
    E: 'ERROR',
  };
  if (mode === 'verbose') {
    tests.forEach((t, i) => {
      const id = `${t.file}::${t.cls ? `${t.cls}::` : ''}${t.name}${t.param}`;
      const reason =
        t.outcome === 's' && rng.chance(0.5)
          ? ` (${rng.pick(['requires postgres', 'flaky on CI', 'needs network', 'not implemented'])})`
          : '';
      out.add(rightAlign(`${id} ${word[t.outcome]}${reason}`, pct(i + 1), width - 1));
    });
  } else if (mode === 'xdist') {
    const order = rng.shuffle(tests.map((_, i) => i));
    order.forEach((ti, i) => {
      const t = tests[ti]!;
      out.add(
        `[gw${rng.int(0, workers - 1)}] ${pct(i + 1)} ${word[t.outcome]} ${t.file}::${t.cls ? `${t.cls}::` : ''}${t.name}${t.param} `,
      );
    });
  } else {
    let i = 0;
    while (i < total) {
      const file = tests[i]!.file;
      let line = `${file} `;
      const room = width - 7;
      while (i < total && tests[i]!.file === file) {
        if (line.length >= room) {
          out.add(rightAlign(line, pct(i), width - 1));
          line = '';
        }
        line += tests[i]!.outcome;
        i++;
      }
      out.add(rightAlign(line, pct(i), width - 1));
    }
  }
  out.add('');

  // Failures.
  const failing = tests.filter((t) => t.outcome === 'F');
  const summaries: { id: string; text: string; kind: 'FAILED' | 'ERROR' }[] = [];
  const errored = tests.filter((t) => t.outcome === 'E');
  if (errored.length > 0) {
    out.add(banner('ERRORS', '=', width));
    for (const t of errored) {
      const fixture = rng.pick(['db_session', 'redis_client', 'app', 'tenant', 'settings']);
      out.add(banner(`ERROR at setup of ${t.cls ? `${t.cls}.` : ''}${t.name}${t.param}`, '_', width), true);
      out.add(`file ${project.rootdir}/${t.file}, line ${rng.int(10, 300)}`);
      out.add(`  def ${t.name}(${fixture}):`);
      out.add(`E       fixture '${fixture}' not found`, true);
      out.add(
        `>       available fixtures: cache, capfd, caplog, capsys, monkeypatch, pytestconfig, record_property, tmp_path, tmp_path_factory`,
      );
      out.add(">       use 'pytest --fixtures [testpath]' for help on them.");
      out.add('');
      out.add(`${project.rootdir}/${t.file}:${rng.int(10, 300)}`);
      summaries.push({ id: nodeId(t), text: `fixture '${fixture}' not found`, kind: 'ERROR' });
    }
  }
  if (failing.length > 0) {
    out.add(banner('FAILURES', '=', width));
    for (const t of failing) {
      const { summary } = renderPytestFailure(rng, out, project, t as PyFailingTest, style, width);
      summaries.push({ id: nodeId(t), text: summary, kind: 'FAILED' });
      if (rng.chance(0.35)) {
        out.add(banner('Captured log call', '-', width));
        const n = rng.int(1, opts.scale === 'small' ? 3 : 14);
        for (let k = 0; k < n; k++) {
          const level = rng.weighted([
            ['INFO    ', 5],
            ['DEBUG   ', 3],
            ['WARNING ', 2],
            ['ERROR   ', 1],
          ] as const);
          const mod = rng.pick(project.modules);
          out.add(
            `${level}${project.pkg}.${mod}:${mod}.py:${rng.int(20, 600)} ${phrase(rng)} ${rng.pick(['', `id=${rng.int(1, 99999)}`, `tenant=t-${rng.int(1, 400)}`, `attempt ${rng.int(1, 3)}/3`])}`.trimEnd(),
          );
        }
      }
      if (rng.chance(0.15)) {
        out.add(banner('Captured stdout call', '-', width));
        for (let k = rng.int(1, 4); k > 0; k--)
          out.add(
            `${rng.pick(['DEBUG:', '>>>', 'payload:', ''])} {'${rng.pick(NOUNS)}': ${rng.int(0, 999)}, '${rng.pick(NOUNS)}': '${rng.hex(6)}'}`.trim(),
          );
      }
    }
  }

  // Warnings.
  let warnings = 0;
  if (rng.chance(0.55)) {
    out.add(banner('warnings summary', '=', width));
    const nw = rng.int(1, opts.scale === 'small' ? 2 : 6);
    for (let k = 0; k < nw; k++) {
      const [pkg] = rng.pick(PYPI_PACKAGES);
      const count = rng.int(1, 40);
      warnings += count;
      out.add(
        rng.chance(0.5)
          ? `${rng.pick(tests).file}::${rng.pick(tests).name}`
          : `${rng.pick(tests).file}: ${count} warnings`,
      );
      out.add(
        `  ${project.sitePackages}/${pkg.replace(/-/g, '_')}/${rng.pick(['__init__', 'compat', 'utils', '_config'])}.py:${rng.int(10, 900)}: ${rng.pick(['DeprecationWarning', 'PendingDeprecationWarning', 'UserWarning', 'ResourceWarning'])}: ${rng.pick(
          [
            'datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).',
            'Support for class-based `config` is deprecated, use ConfigDict instead.',
            "The 'app' shortcut is now deprecated. Use the explicit style 'transport=WSGITransport(app=...)' instead.",
            'pkg_resources is deprecated as an API. See https://setuptools.pypa.io/en/latest/pkg_resources.html',
            'unclosed <socket.socket fd=13, family=2, type=1, proto=6>',
          ],
        )}`,
      );
      out.add(`    ${rng.pick(['warnings.warn(', 'return func(*args, **kwargs)', 'datetime.utcnow()'])}`);
      out.add('');
    }
    out.add('-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html');
  }

  if (plugins.includes('cov') && rng.chance(0.6)) {
    out.add('');
    out.add(
      banner(`coverage: platform linux, python ${python}-final-0`, '-', Math.min(width, 80))
        .replace(/^-+ /, '---------- ')
        .replace(/ -+$/, ' -----------'),
    );
    out.add('Name                                  Stmts   Miss  Cover');
    out.add('---------------------------------------------------------');
    let stmts = 0;
    let miss = 0;
    for (const m of project.modules) {
      const s = rng.int(12, 480);
      const ms = rng.int(0, Math.floor(s / 3));
      stmts += s;
      miss += ms;
      out.add(
        `${`${project.srcPrefix}${m}.py`.padEnd(38)}${String(s).padStart(5)}${String(ms).padStart(7)}${`${Math.round(((s - ms) * 100) / s)}%`.padStart(7)}`,
      );
    }
    out.add('---------------------------------------------------------');
    out.add(
      `${'TOTAL'.padEnd(38)}${String(stmts).padStart(5)}${String(miss).padStart(7)}${`${Math.round(((stmts - miss) * 100) / stmts)}%`.padStart(7)}`,
    );
  }

  if (rng.chance(0.2)) {
    out.add(banner('slowest 10 durations', '=', width));
    for (const t of rng.sample(tests, Math.min(10, tests.length))) {
      out.add(
        `${rng.float(0.2, 9).toFixed(2)}s ${rng.pick(['call', 'setup', 'teardown'])}     ${t.file}::${t.name}${t.param}`,
      );
    }
  }

  const counts: Record<string, number> = {};
  for (const t of tests) counts[t.outcome] = (counts[t.outcome] ?? 0) + 1;
  const secs = rng.logNormal(Math.max(0.5, tests.length * 0.04), 0.5);
  if (summaries.length > 0) {
    out.add(banner('short test summary info', '=', width));
    for (const s of summaries) {
      out.add(shortSummaryLine(s.kind, s.id, s.text, width), true);
    }
  }
  const line = banner(countsLine(counts, warnings, secs), '=', width);
  out.add(line, true);
  return { failed: summaries.map((s) => s.id), exitCode: summaries.length > 0 ? 1 : 0, summaryLine: line };
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const width = rng.pick([80, 80, 100, 120, 150]);
  const mode = pickPytestMode(rng, scale);
  if (rng.chance(0.5)) out.add(`$ ${pytestCommand(rng, mode)}`);
  const run = renderPytestRun(rng, out, { scale, width, mode });
  const { text, keep } = out.finish();
  const passed = run.failed.length === 0;
  return {
    name: `pytest-${String(index).padStart(2, '0')}-${passed ? 'pass' : run.exitCode === 2 ? 'collection-error' : 'fail'}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: passed
      ? 'run the test suite and report whether it passes'
      : 'find why the test suite fails and which code to fix',
    why: passed
      ? 'all tests pass: only the final counts line matters'
      : run.exitCode === 2
        ? 'collection stopped on an import error: the failing import, the missing module and the summary'
        : `${run.failed.length} failing test(s): each failure header, the raising line and E lines of the root-cause frame, its location, the short-summary lines and the counts`,
  };
}

/** The pytest family. */
export const pytestFamily: Family = {
  name: 'pytest',
  scales: [
    'medium',
    'small',
    'large',
    'medium',
    'huge',
    'small',
    'medium',
    'large',
    'small',
    'medium',
    'medium',
    'small',
  ],
  generate,
};
