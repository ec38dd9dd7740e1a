import { describe, expect, it } from 'vitest';
import { SalienceKeepModel, salienceOf } from './salience-keep-model.js';

const KEEP = 0.6;

describe('SalienceKeepModel', () => {
  it('keeps error and failure lines', () => {
    for (const line of [
      'ERROR: disk at 94% capacity',
      'Traceback (most recent call last):',
      "TypeError: Cannot read properties of undefined (reading 'map')",
      'java.lang.NullPointerException',
      "thread 'main' panicked at src/lib.rs:42:5",
      'FATAL: password authentication failed for user "app"',
      'AssertionError: expected 3 to equal 4',
      'connect ECONNREFUSED 127.0.0.1:5432 - connection refused',
      'Permission denied (publickey).',
      'bash: foo: command not found',
      'Process exited with code 137',
      'error: process completed with exit code 2.',
      'api-7d9c  0/1  CrashLoopBackOff  5  3m',
      'Last State: Terminated  Reason: OOMKilled',
      'E       assert response.status_code == 200',
      'request timed out after 30s',
    ]) {
      expect(salienceOf(line), line).toBeGreaterThanOrEqual(KEEP);
    }
  });

  it('does not take a zero exit code for an error', () => {
    expect(salienceOf('Process exited with code 0')).toBeLessThan(KEEP);
    expect(salienceOf('the failover node took over')).toBeLessThan(KEEP);
  });

  it('scores any line containing DECISION: as exactly 1', () => {
    expect(salienceOf('DECISION: roll back the deploy')).toBe(1);
    expect(salienceOf('2024-05-01 DEBUG  Downloading DECISION: keep')).toBe(1);
  });

  it('keeps verdict lines of test runners and builds', () => {
    for (const line of [
      '======== 3 passed, 1 failed in 0.42s ========',
      'Tests:       1 failed, 41 passed, 42 total',
      'Test Suites: 2 passed, 2 total',
      'BUILD FAILURE',
      'BUILD SUCCESSFUL in 12s',
      'FAIL src/parser.test.ts',
      'PASS src/lexer.test.ts',
      'Ran 12 tests in 0.003s',
      'Tests run: 15, Failures: 0, Errors: 0, Skipped: 0',
      'test result: ok. 14 passed; 0 failed; 0 ignored',
      '=========================== short test summary info ============================',
      '================================== FAILURES ===================================',
    ]) {
      expect(salienceOf(line), line).toBeGreaterThanOrEqual(KEEP);
    }
  });

  it('keeps structured data: key: value lines and pipe-table rows', () => {
    for (const line of [
      'Status: Running',
      '  Restart Count:  5',
      'content-type: application/json',
      'replicas = 3',
      '| name | status | age |',
      '|------|--------|-----|',
      '| api  | ready  | 3d  |',
    ]) {
      expect(salienceOf(line), line).toBeGreaterThanOrEqual(KEEP);
    }
  });

  it('does not mistake code or log levels for key: value data', () => {
    expect(salienceOf('    const total = items.length;')).toBeLessThan(KEEP);
    expect(salienceOf('INFO: starting worker pool')).toBeLessThan(KEEP);
  });

  it('reads a logfmt record as a log event, not a setting, unless it reports trouble', () => {
    const record =
      'time=2024-09-23T03:32:29.528Z level=info logger=relay msg=connected backend=nats latency_ms=6';
    expect(salienceOf(record)).toBeLessThan(KEEP);
    expect(salienceOf(record.replace('level=info', 'level=error'))).toBeGreaterThanOrEqual(KEEP);
    expect(salienceOf('GOMAXPROCS=4')).toBeGreaterThanOrEqual(KEEP);
  });

  it('pushes debug noise below plain prose', () => {
    const prose = salienceOf('Compiling the project sources');
    for (const line of [
      'DEBUG pool: connection 7 returned to pool',
      '[TRACE] entering handler',
      'Downloading numpy-1.26.4-cp312-cp312-manylinux_2_17_x86_64.whl (18.2 MB)',
      'Collecting requests>=2.0',
      'Using cached idna-3.7-py3-none-any.whl (66 kB)',
      '  45%|████▌     | 45/100 [00:01<00:01, 40.1it/s]',
      '[=====================>          ] 70%',
      '██████████████████████ 100%',
      '##[debug]Evaluating condition for step',
      '2024-05-01T12:00:00.123Z',
      '2024-05-01 12:00:00 INFO',
      '12:00:01',
    ]) {
      expect(salienceOf(line), line).toBeLessThan(prose);
      expect(salienceOf(line), line).toBeLessThan(KEEP);
    }
  });

  it('keeps an error even in a debug line, but not a key: value debug line', () => {
    expect(salienceOf('DEBUG connection refused by upstream')).toBeGreaterThanOrEqual(KEEP);
    expect(salienceOf('DEBUG retries: 3')).toBeLessThan(KEEP);
  });

  it('looks past a leading CI timestamp', () => {
    expect(salienceOf('2022-06-14T17:16:43.7603612Z Status: Running')).toBeGreaterThanOrEqual(KEEP);
    expect(salienceOf('2022-06-14T17:16:43.7603612Z    ')).toBeLessThan(0.1);
  });

  it('raises the score with digit density', () => {
    expect(salienceOf('latency 120 340 560 ms')).toBeGreaterThan(salienceOf('latency is fine today'));
  });

  it('scores blank lines 0 and stays within [0, 1]', () => {
    expect(salienceOf('')).toBe(0);
    expect(salienceOf('   \t')).toBe(0);
    const all = 'ERROR FAILED 3 passed | a | b | Status: 1 DEBUG Traceback 100% ' + '9'.repeat(50);
    expect(salienceOf(all)).toBeLessThanOrEqual(1);
  });

  it('implements the KeepModel contract, deterministically', async () => {
    const model = new SalienceKeepModel();
    const lines = ['ERROR: boom', 'DECISION: ship it', '', 'just text'];
    const a = await model.scoreLines(lines, 'log');
    const b = await model.scoreLines(lines, 'tool_output');
    expect(a).toBeInstanceOf(Float32Array);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a[1]).toBe(1);
    expect(await model.score('ERROR: boom', 'log')).toBeCloseTo(a[0]!, 6);
    expect(model.id).toBe('salience');
  });

  it('scores a repeated line as it scores it alone, long lines included', () => {
    const long = `ERROR ${'0123456789 '.repeat(50)}`;
    const lines = ['ERROR: boom', 'x', 'ERROR: boom', long, '', long, 'x', 'Tests: 3 passed'];
    const scores = new SalienceKeepModel().scoreLinesSync(lines);
    expect(Array.from(scores)).toEqual(Array.from(Float32Array.from(lines, salienceOf)));
  });
});
