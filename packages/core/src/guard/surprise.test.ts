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
});
