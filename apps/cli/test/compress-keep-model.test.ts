import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const NOTE = (i: number) =>
  `note: the cache for package${i} was rebuilt because its lockfile changed since the last build`;

/** A generated log: hashes and timings, and every 25th line a sentence the rules have no reason to keep. */
function log(): string {
  const lines: string[] = [];
  for (let i = 0; i < 150; i++) {
    if (i % 25 === 12) lines.push(NOTE(i));
    else
      lines.push(
        `${(((i + 1) * 2654435761) % 4294967296).toString(16).padStart(8, '0')} ${i * 3}.${i % 10}s`,
      );
  }
  return `${lines.join('\n')}\n`;
}

const compress = (model: string, extra: string[] = []) => {
  const env = { DISTIL_HOME: mkdtempSync(join(tmpdir(), 'distil-keep-model-')) };
  const run = runCli(['compress', '--keep-model', model, '--json', ...extra, '-'], { input: log(), env });
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as { text: string; tier: string; keepModel: string };
};

describe('distil compress --keep-model (real binary)', () => {
  it('lets the keep model decide among the lines the rules leave undecided', () => {
    const rules = compress('salience');
    const logistic = compress('logistic');
    expect(rules.tier).toBe('digest');
    expect(logistic.tier).toBe('digest');
    expect(logistic.keepModel).toMatch(/^logistic:/);
    const notes = [12, 37, 62, 87, 112, 137];
    // the shipped model learned that agents refer back to sentences, not to hashes and timings
    expect(notes.filter((i) => logistic.text.includes(NOTE(i)))).toEqual(notes);
    expect(notes.filter((i) => rules.text.includes(NOTE(i))).length).toBeLessThan(notes.length);
    expect(logistic.text).not.toEqual(rules.text);
  });
});

describe('distil compress --task (real binary)', () => {
  it('keeps the line that names what the task is about', () => {
    const lines = Array.from(
      { length: 150 },
      (_, i) =>
        `${(((i + 1) * 2654435761) % 4294967296).toString(16).padStart(8, '0')} chunk_${i} ${i * 3}.${i % 10}s`,
    );
    const input = `${lines.join('\n')}\n`;
    const env = { DISTIL_HOME: mkdtempSync(join(tmpdir(), 'distil-task-')) };
    const run = (extra: string[]) =>
      runCli(['compress', '--keep-model', 'logistic', ...extra, '-'], { input, env }).stdout;
    expect(run([])).not.toContain(lines[77]);
    expect(run(['--task', 'why is chunk_77 slow?'])).toContain(lines[77]);
  });
});
