import { describe, expect, it } from 'vitest';
import { isSurprising } from './surprise.js';

describe('isSurprising', () => {
  it('reads a passing test verdict as a pass, whatever words name the test', () => {
    for (const line of [
      '  ✔ reads a missing file (2.891555ms)',
      '  ✔ reports an error when the input is empty (0.4ms)',
      '    ✓ rejects invalid tokens (5 ms)',
      'ok 12 - cannot parse a dangling pipe',
      '--- PASS: TestTimeoutHandling (0.00s)',
      'PASS src/errors.test.ts',
    ]) {
      expect(isSurprising(line), line).toBe(false);
    }
  });

  it('still reads failing verdicts and errors as findings', () => {
    for (const line of [
      '  ✖ keeps escaped quotes inside strings (1.935897ms)',
      '✖ failing tests:',
      '    ✕ rejects invalid tokens (5 ms)',
      'not ok 12 - cannot parse a dangling pipe',
      '--- FAIL: TestTimeoutHandling (0.00s)',
      'FAIL src/errors.test.ts',
      'Error: missing file ./config.json',
      'could not open the missing file',
    ]) {
      expect(isSurprising(line), line).toBe(true);
    }
  });

  it('takes a strong word inside a package, class or path name for a place, unless the name is a thrown class', () => {
    for (const line of [
      'Running org.assertj.core.error.ShouldBeEqual_create_Test',
      'Compiling src/errors/index.ts',
      '[main] INFO eu.stamp_project.dspot.common.report.error.ErrorReport - report written',
    ]) {
      expect(isSurprising(line), line).toBe(false);
    }
    for (const line of [
      'Caused by: org.apache.maven.plugin.MojoExecutionException: Cannot create directory',
      'org.assertj.core.error.ShouldBeEqual failed: expected 1 but was 2',
      'pkg.errors.ParseError: unexpected token',
    ]) {
      expect(isSurprising(line), line).toBe(true);
    }
  });

  it('reads a line logged at an informational level after a five-field timestamp as narration', () => {
    const stamp = (level: string, message = 'Could not read the settings file') =>
      `Apr 12 14:34:27.143 - 0m0s ${level} app: settings.go:71 ${message}`;
    for (const level of ['DEBUG', 'TRACE', 'INFO']) expect(isSurprising(stamp(level)), level).toBe(false);
    expect(isSurprising(stamp('ERROR'))).toBe(true);
    expect(isSurprising(stamp('WARN'))).toBe(true);
    // a DEBUG line narrates whatever it says; an INFO line still reports a strong word
    expect(isSurprising(stamp('DEBUG', 'open: no such file or directory'))).toBe(false);
    expect(isSurprising(stamp('INFO', 'open: no such file or directory'))).toBe(true);
  });
});
