import { describe, expect, it } from 'vitest';
import { ABOVE, keepErrorContext, TRACE } from './error-context.js';

const count = (keep: Uint8Array): number => keep.reduce((n, k) => n + k, 0);

describe("an error's context", () => {
  it("keeps the heading of the tagged step an error belongs to, however far above, and no other step's", () => {
    const lines = [
      '#8 [5/8] COPY requirements.txt .',
      '#8 DONE 0.1s',
      '#9 [6/8] RUN pip install -r requirements.txt',
      ...Array.from({ length: 120 }, (_, i) => `#9 ${(i / 10).toFixed(3)} Collecting pkg${i}`),
      '#9 12.10 ERROR: ResolutionImpossible',
      'ERROR: failed to solve: process did not complete successfully: exit code: 1',
    ];
    const errors = new Uint8Array(lines.length);
    errors[123] = 1;
    const keep = new Uint8Array(lines.length);
    const roles = new Uint8Array(lines.length);
    keepErrorContext(lines, errors, keep, roles);
    expect(keep[2]).toBe(1);
    expect(roles[2]).toBe(ABOVE);
    expect(keep[0]).toBe(0);
    // the step's lines just above the error are its context (at most 40); the ones above those are not
    expect(keep.slice(3, 80).every((k) => k === 0)).toBe(true);
  });

  it('keeps an indented trace under the error whole', () => {
    const lines = [
      'Error: boom',
      ...Array.from({ length: 60 }, (_, i) => `    detail ${i}: value ${i * 3}`),
      'next step',
    ];
    const errors = new Uint8Array(lines.length);
    errors[0] = 1;
    const keep = new Uint8Array(lines.length);
    keepErrorContext(lines, errors, keep);
    expect(count(keep)).toBe(60); // the error line itself is kept by its caller
    expect(keep[61]).toBe(0);
  });

  it('does not take a long indented listing under a heading for the trace of an error', () => {
    const lines = [
      '-- Errors and Exceptions',
      ...Array.from(
        { length: 1000 },
        (_, i) => `\t'pkg_${i}' https://example.org/p${i} 'a library number ${i}'`,
      ),
    ];
    const errors = new Uint8Array(lines.length);
    errors[0] = 1;
    const keep = new Uint8Array(lines.length);
    keepErrorContext(lines, errors, keep);
    expect(count(keep)).toBeLessThanOrEqual(400);
    expect(keep[1]).toBe(1);
  });

  it('says which lines stand above an error and which carry its trace', () => {
    const lines = [
      'step one',
      '  src/a.ts',
      '  src/b.ts',
      'FAIL: 2 files',
      '    expected 1',
      '    received 2',
      'done',
      'second error',
      '    its detail',
    ];
    const errors = new Uint8Array(lines.length);
    errors[3] = 1;
    errors[7] = 1;
    const keep = new Uint8Array(lines.length);
    const roles = new Uint8Array(lines.length);
    keepErrorContext(lines, errors, keep, roles);
    // 'done' ends the first trace and stands above the second error; the first error's trace lines are
    // above the second too, and stay its trace
    expect([...roles]).toEqual([ABOVE, ABOVE, ABOVE, 0, TRACE, TRACE, ABOVE, 0, TRACE]);
    // the roles change nothing about what is kept
    const plain = new Uint8Array(lines.length);
    keepErrorContext(lines, errors, plain);
    expect([...plain]).toEqual([...keep]);
  });
});
