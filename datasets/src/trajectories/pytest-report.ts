import { banner, rightAlign, shortSummaryLine } from '../text-layout.js';

/**
 * A pytest report for a known set of test files and failures, laid out the way pytest 8 prints it at
 * 80 columns: the failing test's source up to the `>` line comes from the real test file, so line numbers
 * and code in the report always match what the agent reads.
 */

/** One failing assertion. */
export interface FailureSpec {
  readonly file: string;
  readonly test: string;
  /** The exact source line (without indentation) that failed. */
  readonly line: string;
  /** The text after each `E` marker. */
  readonly e: readonly string[];
  /** What the short summary prints after ` - `. */
  readonly summary: string;
}

/** A test file and its source. */
export interface TestFile {
  readonly path: string;
  readonly source: string;
}

function testsIn(source: string): string[] {
  return source
    .split('\n')
    .filter((l) => l.startsWith('def test_'))
    .map((l) => l.slice(4, l.indexOf('(')));
}

function failureBlock(file: TestFile, f: FailureSpec): string[] {
  const lines = file.source.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`def ${f.test}(`));
  if (start < 0) throw new Error(`no ${f.test} in ${file.path}`);
  let at = start;
  while (at < lines.length && lines[at]!.trim() !== f.line) at++;
  if (at >= lines.length) throw new Error(`no line ${JSON.stringify(f.line)} in ${f.test}`);
  const out = [banner(f.test, '_', 80), ''];
  for (let i = start; i < at; i++) out.push(`    ${lines[i]}`.trimEnd());
  out.push(`>${`    ${lines[at]}`.slice(1)}`);
  for (const e of f.e) out.push(`E       ${e}`);
  out.push('');
  out.push(`${file.path}:${at + 1}: AssertionError`);
  return out;
}

/** The full report for running `files` with `failures`; `verbose` adds the session header. */
export function pytestReport(
  files: readonly TestFile[],
  failures: readonly FailureSpec[],
  seconds: number,
  header: readonly string[] | null,
): string {
  const out: string[] = [];
  const total = files.reduce((n, f) => n + testsIn(f.source).length, 0);
  if (header) {
    out.push(banner('test session starts', '=', 80), ...header, `collected ${total} items`, '');
  }
  const marksOf = (file: TestFile): string =>
    testsIn(file.source)
      .map((t) => (failures.some((f) => f.file === file.path && f.test === t) ? 'F' : '.'))
      .join('');
  if (header) {
    let done = 0;
    for (const file of files) {
      const marks = marksOf(file);
      done += marks.length;
      out.push(
        rightAlign(`${file.path} ${marks}`, `[${String(Math.floor((done * 100) / total)).padStart(3)}%]`, 79),
      );
    }
  } else {
    // With -q pytest prints the marks of every file on one line; progress lines are one column short of the width.
    out.push(rightAlign(files.map(marksOf).join(''), '[100%]', 79));
  }
  if (failures.length > 0) {
    out.push(banner('FAILURES', '=', 80));
    for (const f of failures) out.push(...failureBlock(files.find((x) => x.path === f.file)!, f));
    out.push(banner('short test summary info', '=', 80));
    for (const f of failures) {
      out.push(shortSummaryLine('FAILED', `${f.file}::${f.test}`, f.summary, 80));
    }
  }
  const passed = total - failures.length;
  const counts =
    failures.length > 0
      ? `${failures.length} failed, ${passed} passed in ${seconds.toFixed(2)}s`
      : `${passed} passed in ${seconds.toFixed(2)}s`;
  out.push(header ? banner(counts, '=', 80) : counts);
  return out.join('\n');
}
