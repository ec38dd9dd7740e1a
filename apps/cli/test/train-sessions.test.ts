import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * A Claude Code session log generated here: the agent cats a CI log (passing lines, one failure named
 * `failure_<n>`), then writes an answer naming the failure, so the failure line is needed and the rest not.
 */
function sessionLog(n: number): string {
  const base = { sessionId: `session-${n}`, isSidechain: false, cwd: '/work/project' };
  const usage = {
    input_tokens: 3,
    cache_creation_input_tokens: 100,
    cache_read_input_tokens: 0,
    output_tokens: 9,
  };
  const reply = (id: string, content: unknown[]) => ({
    ...base,
    type: 'assistant',
    message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, usage },
  });
  const user = (content: unknown) => ({ ...base, type: 'user', message: { role: 'user', content } });
  const log = Array.from({ length: 60 }, (_, i) =>
    i === 30 + (n % 7)
      ? `FAIL test/case_${i}.js failure_${n} expected 3 got 4`
      : `ok ${i} ${(i * 37) % 100}ms`,
  ).join('\n');
  return `${[
    user(`Find why test failure_${n} fails.`),
    reply(`m${n}a`, [{ type: 'tool_use', id: `t${n}`, name: 'Bash', input: { command: 'cat ci.log' } }]),
    user([{ type: 'tool_result', tool_use_id: `t${n}`, content: log }]),
    reply(`m${n}b`, [
      { type: 'text', text: `The failing test is test/case_${30 + (n % 7)}.js: expected 3.` },
    ]),
  ]
    .map((r) => JSON.stringify(r))
    .join('\n')}\n`;
}

describe('distil train on recorded sessions (real binary)', () => {
  it('detects a sessions folder, trains the block model on its labels and records provenance', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'distil-train-sessions-'));
    mkdirSync(join(corpus, 'claude'));
    for (let n = 0; n < 8; n++) writeFileSync(join(corpus, 'claude', `s${n}.jsonl`), sessionLog(n));
    writeFileSync(join(corpus, 'LICENSE'), 'MIT License\n\nCopyright (c) the authors\n');
    const out = join(mkdtempSync(join(tmpdir(), 'distil-train-out-')), 'logistic.json');
    const run = runCli(['train', '--corpus', corpus, '--out', out]);
    expect(run.stderr).not.toContain('distil: ');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('recorded sessions (8 claude-code)');
    expect(run.stdout).toMatch(/ROC-AUC\s+removed @99% recall\s+removed @95% recall\s+ceiling/);
    const weights = JSON.parse(readFileSync(out, 'utf8'));
    expect(weights.version).toBe(4);
    expect(weights.provenance).toMatchObject({
      sessions: { 'claude-code': 8 },
      licence: 'MIT License',
      outputs: 8,
      lines: 480,
    });
    expect(weights.provenance.files).toContain(join('claude', 's0.jsonl'));
    expect(weights.provenance.label).toContain('[A-Za-z0-9_./:-]{4,}');
    // the failure lines are the needed ones: held out by session, the model ranks them above the rest
    expect(weights.provenance.heldOut.rocAuc).toBeGreaterThan(0.9);
    // the weights load as a keep model through `distil compress`
    const config = join(corpus, 'distil.config.json');
    writeFileSync(
      config,
      JSON.stringify({ keepModel: { type: 'logistic', weights: out }, restoreStore: { type: 'memory' } }),
    );
    const compressed = runCli(['compress', '--config', config, '--json', '-'], { input: sessionLog(3) });
    expect(compressed.status).toBe(0);
    expect(JSON.parse(compressed.stdout).keepModel).toMatch(/^logistic:[0-9a-f]{12}$/);
  });

  it('trains the transformer on the same sessions, split by session, and prints the held-out table', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'distil-train-transformer-sessions-'));
    for (let n = 0; n < 10; n++) writeFileSync(join(corpus, `s${n}.jsonl`), sessionLog(n));
    const out = join(mkdtempSync(join(tmpdir(), 'distil-train-transformer-out-')), 'model');
    // a model small enough to train in seconds on one thread
    const shape = [
      '--layers',
      '1',
      '--hidden',
      '16',
      '--heads',
      '2',
      '--intermediate',
      '32',
      '--seq-len',
      '24',
    ];
    const run = runCli([
      'train-transformer',
      '--corpus',
      corpus,
      '--out',
      out,
      '--epochs',
      '1',
      '--threads',
      '1',
      ...shape,
    ]);
    expect(run.stderr).not.toContain('distil: ');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/10 agent sessions \(10 tool outputs, split by session\), 600 lines/);
    expect(run.stdout).toContain('training on decision labels');
    expect(run.stdout).toMatch(/transformer\s+decision\s+\d+/);
    // beside it, the block logistic trained on the same sessions, every test output scored as a block
    expect(run.stdout).toContain('Held-out sessions, each tool output scored as a block');
    expect(run.stdout).toMatch(/logistic \(block \+ context \+ prior\)\s+\d+\s+[\d.]+%\s+[\d.]+\s+[\d.]+%/);
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    expect(metrics.corpus.roots).toEqual([corpus]);
    expect(metrics.sessionEvaluation.map((r: { model: string }) => r.model)).toEqual([
      'rules (salience)',
      'logistic (block + context + prior)',
      'transformer',
    ]);
  }, 60_000);
});
