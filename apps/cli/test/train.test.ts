import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/** A small corpus the test writes itself: two nested log files with errors, verdicts, data and noise. */
function writeCorpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'distil-train-corpus-'));
  mkdirSync(join(root, 'ci', 'jobs'), { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    lines.push(
      [
        `ERROR job ${i} failed with exit code ${(i % 3) + 1}`,
        `DEBUG poll ${i} idle`,
        `  retries: ${i % 9}`,
        `Downloading artifact-${i}.zip`,
        `compiling unit ${i} of the workspace`,
        `${i} passed, ${i % 4} failed`,
      ][i % 6]!,
    );
  }
  writeFileSync(join(root, 'ci', 'jobs', 'build.log'), lines.slice(0, 300).join('\n'));
  writeFileSync(join(root, 'test.txt'), lines.slice(300).join('\r\n'));
  return root;
}

describe('distil train (real binary)', () => {
  it('trains, prints held-out accuracy and F1 as a table, and writes the same weights on a second run', () => {
    const corpus = writeCorpus();
    const out = join(mkdtempSync(join(tmpdir(), 'distil-train-out-')), 'weights', 'logistic.json');
    const first = runCli(['train', '--corpus', corpus, '--out', out, '--epochs', '100']);
    expect(first.stderr).not.toContain('distil: ');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/split\s+lines\s+accuracy %\s+precision %\s+recall %\s+F1/);
    expect(first.stdout).toMatch(/held-out\s+\d+\s+\d+\.\d\d/);
    expect(first.stdout).toContain('2 files');
    const weights = readFileSync(out, 'utf8');
    expect(JSON.parse(weights).weights).toHaveLength(9);

    const second = runCli(['train', '--corpus', corpus, '--out', out, '--epochs', '100']);
    expect(second.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(weights);
    expect(second.stdout).toBe(first.stdout);
  });

  it('names the path of a missing or empty corpus and exits 1', () => {
    const missing = join(tmpdir(), 'distil-no-such-corpus');
    const run = runCli(['train', '--corpus', missing, '--out', join(tmpdir(), 'x.json')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`distil: corpus folder not found: ${missing}`);
    const empty = mkdtempSync(join(tmpdir(), 'distil-empty-corpus-'));
    const emptyRun = runCli(['train', '--corpus', empty, '--out', join(tmpdir(), 'x.json')]);
    expect(emptyRun.status).toBe(1);
    expect(emptyRun.stderr).toContain(`corpus folder holds no text files: ${empty}`);
  });

  it('rejects a bad option value, naming it', () => {
    const run = runCli(['train', '--epochs', 'many']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('epochs');
  });
});
