import {
  describeTitle,
  itTitle,
  type JsProject,
  jsProject,
  testFileFor,
  tsStatement,
} from '../js-flavour.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { sgr } from '../text-layout.js';
import { camel, functionWords, NOUNS, pascal, phrase, projectName } from '../vocab-words.js';

/**
 * Jest runs: PASS/FAIL suite lines (optionally `--verbose` trees), failure blocks with matcher diffs and
 * code frames, runtime errors with stack traces, suites that fail to compile, console noise and the
 * summary. Kept lines: each `●` failure title, the matcher and Expected/Received (or the error) lines, the
 * `>` line of the code frame, the first stack frame in project code, `FAIL` suite lines and the counts.
 */

interface JestTest {
  path: string[];
  title: string;
  state: 'pass' | 'fail' | 'skip' | 'todo';
  ms: number;
}

interface JestSuite {
  file: string;
  tests: JestTest[];
  compileError: boolean;
  secs: number;
}

const SCALE_SUITES: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [2, 5],
  medium: [8, 30],
  large: [40, 90],
  huge: [110, 160],
};

function codeFrame(rng: Rng, out: LabelledText, line: number, failing: string, column: number): void {
  const before = rng.int(1, 3);
  for (let k = before; k > 0; k--)
    out.add(`      ${String(line - k).padStart(String(line + 3).length)} |     ${tsStatement(rng)}`);
  out.add(`    > ${String(line)} |     ${failing}`, true);
  out.add(`      ${' '.repeat(String(line + 3).length)} |     ${' '.repeat(Math.max(0, column - 5))}^`);
  for (let k = 1; k <= rng.int(1, 3); k++)
    out.add(
      `      ${String(line + k).padStart(String(line + 3).length)} |   ${rng.pick(['});', '', `  ${tsStatement(rng)}`, '  });'])}`.trimEnd(),
    );
}

function renderFailure(
  rng: Rng,
  out: LabelledText,
  project: JsProject,
  suite: JestSuite,
  t: JestTest,
): string {
  out.add(`  ● ${[...t.path, t.title].join(' › ')}`, true);
  out.add('');
  const line = rng.int(12, 340);
  const col = rng.int(10, 40);
  const kind = rng.int(0, 6);
  const v = rng.pick(NOUNS);
  if (kind <= 3) {
    const a = rng.int(1, 500);
    const b = a + rng.pick([1, 2, 8, -3, 100]);
    if (kind === 0) {
      out.add('    expect(received).toBe(expected) // Object.is equality', true);
      out.add('');
      out.add(`    Expected: ${b}`, true);
      out.add(`    Received: ${a}`, true);
    } else if (kind === 1) {
      const states = rng.sample(['settled', 'pending', 'failed', 'queued', 'expired'], 2);
      out.add('    expect(received).toEqual(expected) // deep equality', true);
      out.add('');
      out.add('    - Expected  - 1');
      out.add('    + Received  + 1');
      out.add('');
      out.add('      Object {');
      out.add(`        "id": "${v}_${rng.alnum(8)}",`);
      out.add(`    -   "status": "${states[0]}",`, true);
      out.add(`    +   "status": "${states[1]}",`, true);
      out.add(`        "${rng.pick(NOUNS)}": ${rng.int(0, 999)},`);
      out.add('      }');
    } else if (kind === 2) {
      const id = `${v.slice(0, 3)}_${rng.alnum(10)}`;
      out.add('    expect(jest.fn()).toHaveBeenCalledWith(...expected)', true);
      out.add('');
      out.add(`    Expected: "${id}", {"retry": true, "timeoutMs": ${rng.pick([1000, 5000, 30000])}}`, true);
      out.add(`    Received: "${id}", {"retry": false, "timeoutMs": ${rng.pick([1000, 5000, 30000])}}`, true);
      out.add('');
      out.add(`    Number of calls: ${rng.int(1, 3)}`);
    } else {
      out.add('    expect(received).toThrow(expected)', true);
      out.add('');
      out.add(`    Expected substring: "invalid ${v}"`, true);
      out.add(`    Received message:   "${v} is required"`, true);
    }
    out.add('');
    codeFrame(
      rng,
      out,
      line,
      `expect(${v}).${['toBe', 'toEqual', 'toHaveBeenCalledWith', 'toThrow'][kind]}(${kind === 3 ? `'invalid ${v}'` : '…'});`.replace(
        '(…)',
        `(${rng.int(1, 99)})`,
      ),
      col,
    );
    out.add('');
    out.add(
      `      at Object.${rng.pick(['<anonymous>', kind === 0 ? 'toBe' : 'toEqual'])} (${suite.file}:${line}:${col})`,
      true,
    );
    if (rng.chance(0.4))
      out.add('      at processTicksAndRejections (node:internal/process/task_queues:95:5)');
    return `expected ${kind}`;
  }
  if (kind === 4 || kind === 5) {
    const src = rng.pick(project.sources);
    const cls = pascal([rng.pick(NOUNS), 'service']);
    const fn = camel(functionWords(rng));
    const prop = rng.pick(['toUpperCase', 'length', 'map', 'id', 'amount', 'split']);
    const msg =
      kind === 4
        ? `TypeError: Cannot read properties of undefined (reading '${prop}')`
        : `${pascal([rng.pick(NOUNS)])}Error: ${phrase(rng)} (${v}=${rng.int(1, 9999)})`;
    out.add(`    ${msg}`, true);
    out.add('');
    const srcLine = rng.int(20, 400);
    codeFrame(
      rng,
      out,
      srcLine,
      kind === 4
        ? `return ${v}.${prop}${prop === 'length' || prop === 'id' || prop === 'amount' ? '' : '()'};`
        : `throw new ${msg.split(':')[0]}(\`${phrase(rng)}\`);`,
      rng.int(12, 30),
    );
    out.add('');
    out.add(`      at ${cls}.${fn} (${src}:${srcLine}:${rng.int(5, 40)})`, true);
    for (let k = rng.int(0, 2); k > 0; k--)
      out.add(`      at ${cls}.${camel(functionWords(rng))} (${src}:${rng.int(20, 400)}:${rng.int(5, 40)})`);
    if (rng.chance(0.5))
      out.add(
        `      at ${rng.pick(['Array.map (<anonymous>)', 'new Promise (<anonymous>)', `Object.<anonymous> (node_modules/${rng.pick(['p-retry', 'lru-cache', 'ioredis'])}/dist/index.js:${rng.int(10, 900)}:${rng.int(5, 40)})`])}`,
      );
    out.add(`      at Object.<anonymous> (${suite.file}:${line}:${col})`);
    return msg;
  }
  out.add(`    thrown: "Exceeded timeout of ${rng.pick([5000, 10000, 20000])} ms for a test.`, true);
  out.add(
    '    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."',
  );
  out.add('');
  codeFrame(rng, out, line, `it('${t.title}', async () => {`, 5);
  out.add('');
  out.add(`      at ${rng.pick(['it', 'test'])} (${suite.file}:${line}:${rng.int(3, 5)})`, true);
  out.add(`      at Object.describe (${suite.file}:${rng.int(3, 11)}:1)`);
  return 'timeout';
}

function renderCompileError(rng: Rng, out: LabelledText, project: JsProject, suite: JestSuite): void {
  out.add('  ● Test suite failed to run', true);
  out.add('');
  if (rng.chance(0.5)) {
    const src = rng.pick(project.sources);
    const line = rng.int(5, 300);
    const field = rng.pick(NOUNS);
    out.add(
      `    ${src}:${line}:${rng.int(3, 30)} - error TS2322: Type 'string | undefined' is not assignable to type 'string'.`,
      true,
    );
    out.add("      Type 'undefined' is not assignable to type 'string'.", true);
    out.add('');
    out.add(`    ${line}       ${field}: raw.${field},`, true);
    out.add(`    ${' '.repeat(String(line).length)}       ${'~'.repeat(field.length)}`);
  } else {
    const missing = `../${rng.pick(['config', 'db', 'env', camel([rng.pick(NOUNS), 'client'])])}`;
    out.add(`    Cannot find module '${missing}' from '${suite.file}'`, true);
    out.add('');
    out.add('    Require stack:');
    out.add(`      ${suite.file}`);
    out.add('');
    out.add(`      ${rng.int(1, 9)} | import { ${pascal([rng.pick(NOUNS)])} } from '${missing}';`);
    out.add('');
    out.add('      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)');
  }
}

function suiteLine(state: 'PASS' | 'FAIL', file: string, secs: number, color: boolean): string {
  const badge = color
    ? `${sgr(state === 'PASS' ? '42;1;30' : '41;1;37')} ${state} ${sgr('0')}`
    : ` ${state} `;
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  const base = file.slice(file.lastIndexOf('/') + 1);
  const name = color ? `${sgr('2')}${dir}${sgr('22')}${sgr('1')}${base}${sgr('22')}` : file;
  return `${badge} ${name}${secs > 5 ? ` (${secs.toFixed(3)} s)` : ''}`;
}

/** What a jest run reported. */
export interface JestRunSummary {
  readonly failedSuites: number;
  readonly failures: number;
}

/** Writes one jest run into `out`; `echo` prints the command line first, `forceFail` guarantees a failure. */
export function renderJestRun(
  rng: Rng,
  out: LabelledText,
  scale: Scale,
  echo = true,
  forceFail = false,
): JestRunSummary {
  const [lo, hi] = SCALE_SUITES[scale];
  const suiteCount = rng.int(lo, hi);
  const project = jsProject(rng, projectName(rng), suiteCount + rng.int(2, 8));
  const verbose = rng.chance(scale === 'huge' ? 0.7 : 0.35);
  const color = rng.chance(0.3);
  const convention = rng.int(0, 2);
  const suites: JestSuite[] = [];
  const tested = rng.shuffle(project.sources);
  for (let i = 0; i < suiteCount && i < tested.length; i++) {
    const tests: JestTest[] = [];
    const describes = [describeTitle(rng)];
    for (let k = rng.int(1, scale === 'small' ? 6 : 16); k > 0; k--) {
      if (rng.chance(0.2)) describes.splice(1, 1, camel(functionWords(rng)));
      tests.push({
        path: [...describes],
        title: itTitle(rng),
        state: rng.weighted([
          ['pass', 60],
          ['skip', 2],
          ['todo', 1],
        ] as const),
        ms: Math.round(rng.logNormal(4, 1.2)),
      });
    }
    suites.push({
      file: testFileFor(tested[i]!, convention),
      tests,
      compileError: false,
      secs: rng.logNormal(2, 0.8),
    });
  }
  const outcome = forceFail
    ? 'fail'
    : rng.weighted([
        ['fail', 8],
        ['pass', 1],
      ] as const);
  if (outcome === 'fail') {
    const failingSuites = rng.sample(
      suites,
      rng.weighted([
        [1, 6],
        [2, 3],
        [3, 1],
      ] as const),
    );
    for (const s of failingSuites) {
      if (rng.chance(0.12)) s.compileError = true;
      else for (const t of rng.sample(s.tests, rng.int(1, Math.min(3, s.tests.length)))) t.state = 'fail';
    }
  }

  const cmd = rng.pick([
    'npx jest',
    'npm test',
    'yarn test --ci',
    'pnpm jest --coverage=false',
    'npx jest --runInBand',
    'npm run test:unit --',
  ]);
  if (echo && rng.chance(0.6)) {
    out.add(`$ ${cmd}${verbose ? ' --verbose' : ''}`);
    if (cmd.startsWith('npm') || cmd.startsWith('yarn')) {
      out.add('');
      out.add(`> ${project.name}@${rng.int(0, 3)}.${rng.int(0, 30)}.${rng.int(0, 9)} test`);
      out.add(`> jest${rng.chance(0.5) ? ' --ci' : ''}`);
      out.add('');
    }
  }
  const failedTitles: { suite: JestSuite; t: JestTest | null }[] = [];
  for (const suite of suites) {
    const failed = suite.compileError || suite.tests.some((t) => t.state === 'fail');
    out.add(suiteLine(failed ? 'FAIL' : 'PASS', suite.file, suite.secs, color), failed);
    if (verbose && !suite.compileError) {
      let prev: string[] = [];
      for (const t of suite.tests) {
        t.path.forEach((p, depth) => {
          if (prev[depth] !== p) out.add(`${'  '.repeat(depth + 1)}${p}`);
        });
        prev = t.path;
        const mark =
          t.state === 'pass' ? '✓' : t.state === 'fail' ? '✕' : t.state === 'skip' ? '○ skipped' : '✎ todo';
        out.add(
          `${'  '.repeat(t.path.length + 1)}${mark} ${t.title}${t.state === 'pass' || t.state === 'fail' ? ` (${t.ms} ms)` : ''}`,
          t.state === 'fail',
        );
      }
      out.add('');
    }
    if (rng.chance(0.15)) {
      out.add('  ● Console');
      out.add('');
      for (let k = rng.int(1, 4); k > 0; k--) {
        const level = rng.pick(['log', 'warn', 'error', 'info']);
        out.add(`    console.${level}`);
        out.add(
          `      ${rng.pick([`${phrase(rng)}`, `[${rng.pick(['db', 'cache', 'http'])}] ${phrase(rng)}`, `Warning: An update to ${pascal([rng.pick(NOUNS)])} inside a test was not wrapped in act(...).`])}`,
        );
        out.add('');
        out.add(
          `      at ${rng.pick([`Object.<anonymous> (${rng.pick(project.sources)}:${rng.int(5, 200)}:${rng.int(5, 20)})`, `${pascal([rng.pick(NOUNS)])}.${camel(functionWords(rng))} (${rng.pick(project.sources)}:${rng.int(5, 200)}:${rng.int(5, 20)})`])}`,
        );
        out.add('');
      }
    }
    if (suite.compileError) {
      renderCompileError(rng, out, project, suite);
      out.add('');
      failedTitles.push({ suite, t: null });
    }
    for (const t of suite.tests.filter((x) => x.state === 'fail')) {
      renderFailure(rng, out, project, suite, t);
      out.add('');
      failedTitles.push({ suite, t });
    }
  }

  const failedSuites = suites.filter((s) => s.compileError || s.tests.some((t) => t.state === 'fail'));
  if (failedSuites.length > 0 && rng.chance(0.5)) {
    out.add('Summary of all failing tests');
    for (const s of failedSuites) {
      out.add(suiteLine('FAIL', s.file, s.secs, color), true);
      for (const f of failedTitles.filter((x) => x.suite === s)) {
        out.add(f.t ? `  ● ${[...f.t.path, f.t.title].join(' › ')}` : '  ● Test suite failed to run', true);
      }
      out.add('');
    }
  }
  const all = suites.filter((s) => !s.compileError).flatMap((s) => s.tests);
  const n = (st: JestTest['state']): number => all.filter((t) => t.state === st).length;
  const parts = (pairs: [number, string][]): string =>
    pairs
      .filter(([k]) => k > 0)
      .map(([k, l]) => `${k} ${l}`)
      .join(', ');
  out.add('');
  out.add(
    `Test Suites: ${parts([
      [failedSuites.length, 'failed'],
      [suites.length - failedSuites.length, 'passed'],
    ])}, ${suites.length} total`,
    true,
  );
  out.add(
    `Tests:       ${parts([
      [n('fail'), 'failed'],
      [n('skip'), 'skipped'],
      [n('todo'), 'todo'],
      [n('pass'), 'passed'],
    ])}, ${all.length} total`,
    true,
  );
  const snaps = rng.int(0, 40);
  out.add(`Snapshots:   ${snaps > 0 ? `${snaps} passed, ${snaps} total` : '0 total'}`);
  const total = suites.reduce((acc, s) => acc + s.secs, 0) / rng.pick([1, 2, 3]);
  out.add(
    `Time:        ${total.toFixed(3)} s${rng.chance(0.5) ? `, estimated ${Math.max(1, Math.round(total * rng.float(0.8, 1.3)))} s` : ''}`,
  );
  out.add('Ran all test suites.');
  if (failedSuites.length > 0 && cmd.startsWith('npm'))
    out.add('npm ERR! Test failed.  See above for more details.');
  return { failedSuites: failedSuites.length, failures: failedTitles.length };
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const run = renderJestRun(rng, out, scale);
  const { text, keep } = out.finish();
  const failed = run.failedSuites > 0;
  return {
    name: `jest-${String(index).padStart(2, '0')}-${failed ? 'fail' : 'pass'}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: failed ? 'find which tests fail and why' : 'confirm the test suite passes',
    why: failed
      ? `${run.failures} failure(s) in ${run.failedSuites} suite(s): the ● titles, matcher and Expected/Received or error lines, the failing code-frame line, the first project stack frame, FAIL lines and the counts`
      : 'everything passes: the Test Suites and Tests counts are what matter',
  };
}

/** The jest family. */
export const jestFamily: Family = {
  name: 'jest',
  scales: ['medium', 'small', 'large', 'medium', 'small', 'huge', 'medium', 'small', 'large', 'medium'],
  generate,
};
