import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'distil-templates-'));
const write = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const users = ['webmaster', 'test', 'admin', 'oracle'];
const lines = [
  ...users.flatMap((user, i) => [
    `Dec 10 06:55:4${i} LabSZ sshd[2420${i}]: Invalid user ${user} from 173.234.31.18${i}`,
    `Dec 10 06:55:4${i} LabSZ sshd[2420${i}]: input_userauth_request: invalid user ${user} [preauth]`,
  ]),
  'Dec 10 07:02:47 LabSZ sshd[24203]: Connection closed by 212.47.254.145 [preauth]',
];

describe('distil templates (real binary)', { timeout: 120_000 }, () => {
  it('prints one JSON object per input line with --json, whatever the line endings', () => {
    const path = write('ssh.log', `${lines.slice(0, 4).join('\r\n')}\r${lines.slice(4).join('\n')}\n`);
    const run = runCli(['templates', path, '--json']);
    expect(run.status).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; cluster: number; template: string });
    expect(rows.map((r) => r.line)).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rows.filter((_, i) => i % 2 === 0 && i < 8).every((r) => r.cluster === rows[0]!.cluster)).toBe(
      true,
    );
    expect(rows.filter((_, i) => i % 2 === 1).every((r) => r.cluster === rows[1]!.cluster)).toBe(true);
    expect(new Set(rows.map((r) => r.cluster)).size).toBe(3);
    expect(rows[8]!.template).toBe('<*> <*> <*> LabSZ sshd[<*>]: Connection closed by <*> [preauth]');
  });

  it('prints the templates with their counts as a table by default', () => {
    const run = runCli(['templates', write('table.log', `${lines.join('\n')}\n`)]);
    expect(run.status).toBe(0);
    const out = run.stdout.split('\n');
    expect(out[0]).toMatch(/^lines\s+cluster\s+template$/);
    expect(out[2]).toMatch(/^\s*4\s+\d+\s+<\*> <\*> <\*> LabSZ sshd\[<\*>\]: /);
    expect(run.stderr).toContain('9 lines, 3 templates');
  });

  it('says clearly what is wrong with a missing, binary or empty file', () => {
    const missing = runCli(['templates', join(dir, 'nope.log')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no such file');
    const binary = runCli(['templates', write('bin.log', Uint8Array.from([0x61, 0x00, 0xff, 0x0a]))]);
    expect(binary.status).toBe(1);
    expect(binary.stderr).toContain('binary');
    const empty = runCli(['templates', write('empty.log', ''), '--json']);
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('empty');
  });
});
