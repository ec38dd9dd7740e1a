import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asCodexExec,
  asPersistedOutput,
  asReadOutput,
  ciLog,
  READ_REMINDER,
} from '../validate/agent-outputs.js';
import { detectKind } from './detect-kind.js';
import { splitEnvelope } from './tool-envelope.js';

const log = ciLog(300).text;

describe('splitEnvelope', () => {
  it("separates Codex's exec header from the command's output, in both of its formats", () => {
    const shell = splitEnvelope(asCodexExec(log, { exitCode: 2 }));
    expect(shell).toEqual({
      prefix: 'Exit code: 2\nWall time: 1.2000 seconds\nOutput:\n',
      body: log,
      suffix: '',
    });
    const unified = splitEnvelope(asCodexExec(log, { style: 'unified' }));
    expect(unified.prefix).toBe(
      'Chunk ID: 4f2a9c\nWall time: 1.2000 seconds\nProcess exited with code 0\nOutput:\n',
    );
    expect(unified.body).toBe(log);
  });

  it("keeps a capped output's truncation marker in the body, where it was", () => {
    const capped = asCodexExec(log, { maxChars: 4000 });
    const { prefix, body } = splitEnvelope(capped);
    expect(prefix).toMatch(/^Exit code: 0\nWall time: [\d.]+ seconds\nTotal output lines: \d+\nOutput:\n$/);
    expect(body).toMatch(/…\d+ tokens truncated…/);
  });

  it("takes Codex's own cap header (warning, line count, blank line) as wrapper", () => {
    const text = `Exit code: 0\nWall time: 3 seconds\nOutput:\nWarning: truncated output (original token count: 9000)\nTotal output lines: 400\n\n${log}`;
    expect(splitEnvelope(text).body).toBe(log);
  });

  it("frames Claude Code's persisted-output preview: the saved path is wrapper, the preview is body", () => {
    const text = asPersistedOutput(log, '/home/u/.claude/projects/p/s/tool-results/b1.txt');
    const { prefix, body, suffix } = splitEnvelope(text);
    expect(prefix).toContain('Full output saved to: /home/u/.claude/projects/p/s/tool-results/b1.txt\n');
    expect(prefix.endsWith('Preview (first 2KB):\n')).toBe(true);
    expect(log.startsWith(body)).toBe(true);
    expect(suffix).toBe('...\n</persisted-output>');
  });

  it('takes an appended system reminder as wrapper, the line break before it staying with the output', () => {
    const text = asReadOutput('a\nb\nc', { reminder: READ_REMINDER, padded: true });
    const { body, suffix } = splitEnvelope(text);
    expect(body).toBe('     1\ta\n     2\tb\n     3\tc\n');
    expect(suffix).toBe(`\n${READ_REMINDER}`);
  });

  it('leaves text without a wrapper alone, and lookalikes inside an output too', () => {
    for (const text of [
      log,
      `${log}Exit code: 1\nOutput:\n`,
      `noise\n<system-reminder>${'x'.repeat(9000)}</system-reminder>`,
    ]) {
      expect(splitEnvelope(text)).toEqual({ prefix: '', body: text, suffix: '' });
    }
  });

  it('always splits a text into parts that join back to it', () => {
    const piece = fc.constantFrom(
      'Exit code: 1\n',
      'Wall time: 0.5 seconds\n',
      'Output:\n',
      'Total output lines: 9\n',
      '\n',
      '<persisted-output>\n',
      'Preview (first 2KB):\n',
      '...\n',
      '</persisted-output>',
      '<system-reminder>',
      '</system-reminder>\n',
      '\r\n',
      'ERROR x\n',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 12 })), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const { prefix, body, suffix } = splitEnvelope(text);
        expect(prefix + body + suffix).toBe(text);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('detectKind through wrappers', () => {
  it('sees the log inside a Read, a Codex exec output and a persisted preview', () => {
    expect(detectKind(log)).toBe('log');
    expect(detectKind(asReadOutput(log))).toBe('log');
    expect(detectKind(asReadOutput(log, { padded: true, reminder: READ_REMINDER }))).toBe('log');
    expect(detectKind(asCodexExec(log))).toBe('log');
    expect(detectKind(asPersistedOutput(log, '/tmp/x.txt'))).toBe('log');
  });

  it('sees JSON inside a Codex exec output and a numbered read', () => {
    const json = JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }, null, 2);
    expect(detectKind(asCodexExec(json))).toBe('json');
    expect(detectKind(asReadOutput(json))).toBe('json');
  });
});
