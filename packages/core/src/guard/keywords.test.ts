import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVerdict } from '../tier1/verdicts.js';
import { lineKeywords } from './keywords.js';
import { isSurprising } from './surprise.js';

/** Pieces of every branch of the gated patterns (surprise.ts, verdicts.ts), and of the text around them. */
const PIECES = [
  // strong
  ...['error', 'errors', 'ERR!', 'err', 'fatal', 'failed', 'failures', 'fail', 'failing', 'exception'],
  ...['Traceback', 'panicked', 'aborted', 'crashed', 'segfault', 'segmentation fault', 'core dumped'],
  ...['timed out', 'time out', 'timedout', 'timeout', 'deadline exceeded', 'refused', 'denied'],
  ...['unauthorised', 'Unauthorized', 'forbidden', 'unreachable', 'no such file', 'undefined reference'],
  ...['killed', 'OOMKilled', 'CrashLoopBackOff', 'evicted', 'backoff', 'unhealthy', 'assertionerror'],
  ...['expected 3 but got 4', 'expected x was', 'exit code 2', 'exited with 1', 'exit status 0'],
  ...['returned non-zero', 'non-zero exit', 'stacktrace', 'stack trace', 'caused by'],
  ...[
    'E ',
    'E123',
    'error[',
    'warning[',
    '** ',
    'FAIL',
    'FAILED',
    '✗',
    '✘',
    '✕',
    '×',
    '❌',
    '●',
    '!!',
    '[-]',
  ],
  // weak
  ...['not found', 'not defined', 'undefined', 'not recognized', 'unknown option', 'unknown flag'],
  ...['no such command', 'cannot', "can't", 'could not', "couldn't", 'unable to', 'missing', 'invalid'],
  ...['unresolved', 'illegal', 'unexpected', 'mismatch', 'conflict', 'broken', 'violation', 'rejected'],
  ...[
    'degraded',
    'anomaly',
    'anomalous',
    '0 failed',
    'Failures: 0',
    'errors=0',
    'DEBUG ',
    '[INFO] ',
    'INFO:',
  ],
  // verdicts
  ...['3 passed', '1 failed, ', '2 failing (', '4 passing', '5 errors in 2s', '2 skipped', '1 pending'],
  ...['0 broken', '=== 2 passed', '-- 1 failed', 'short test summary', 'FAILURES', 'ERRORS', 'Tests: 3'],
  ...[
    'Test Suites: 4',
    'Tests run: 5, ',
    'Failures: 1,',
    'Errors: 2,',
    'test result: ok',
    'test result: FAILED',
  ],
  ...['BUILD SUCCESS', 'BUILD FAILURE', 'BUILD SUCCESSFUL', 'FAILED (failures=1', 'OK (tests ', 'OK (test='],
  ...['FAILED (tests=', 'Ran 3 tests in'],
  ...['Process completed with exit code 1', 'exited with code 2', 'finished with status 3'],
  ...['The command "make" exited with 2', 'PASS ', 'ok ', 'not ok ', 'npm ERR! code', 'Done in 3'],
  ...['Finished in 2', 'Completed in 1', 'added 5 packages', '3 vulnerabilities', 'found 0 vulnerabilities'],
  ...['Successfully installed x', '___ test_x ___', 'DECISION:', 'install', 'complete', 'ran '],
  // around them
  ...[' ', '  ', '\t', '\u00a0', '|', '-', '=', '_', ',', '(', '[', ':', '0', '7', 'é', 'word', 'Word'],
];

const piece = fc
  .tuple(fc.constantFrom(...PIECES), fc.integer())
  .map(([p, bits]) =>
    [...p].map((c, i) => ((bits >> (i % 31)) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''),
  );
const line = fc
  .array(fc.oneof(piece, fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(''));

/** Where the keyword gates change an answer: every gate open (`-1`) gives the patterns' own. */
function disagreements(l: string): string[] {
  const keywords = lineKeywords(l);
  const found: string[] = [];
  if (isSurprising(l, keywords) !== isSurprising(l, -1)) found.push(`surprise: ${l}`);
  if (isVerdict(l, keywords) !== isVerdict(l, -1)) found.push(`verdict: ${l}`);
  return found;
}

describe('keyword gates of the guard and the verdicts', () => {
  it('answer exactly as the patterns do, on word soup in any case', () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(disagreements(l)).toEqual([]);
      }),
      { numRuns: 10_000 },
    );
  });

  it('answer exactly as the patterns do on every line of the bundled tool outputs', () => {
    const dir = join(import.meta.dirname, '../../../../datasets/generated/tool_outputs');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('.'));
    const lines = new Set(files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/\r\n|\r|\n/)));
    expect(lines.size).toBeGreaterThan(1000);
    expect([...lines].flatMap(disagreements)).toEqual([]);
  });
});
