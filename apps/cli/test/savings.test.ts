import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const home = join(mkdtempSync(join(tmpdir(), 'distil-cli-savings-')), 'home');

function run(args: readonly string[]) {
  const result = spawnSync(process.execPath, ['--import', TSX, BIN, ...args], {
    env: { ...process.env, DISTIL_HOME: home },
    timeout: 60_000,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An OpenAI Chat Completions body: one conversation, three file reads, the third after an edit. */
function requestBody(): string {
  const file = Array.from(
    { length: 200 },
    (_, i) => `    total_${i} = sum(values[${i}:]) / ${i + 1}  # bucket ${i}`,
  ).join('\n');
  const edited = file.replace('# bucket 120', '# bucket 120, clamped');
  const messages: unknown[] = [
    { role: 'system', content: `You are a coding agent. ${'Be careful. '.repeat(400)}` },
  ];
  messages.push({ role: 'user', content: 'Fix the bucket maths.' });
  const read = (id: string, text: string): void => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{"path":"stats.py"}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: text });
  };
  read('c1', file);
  read('c2', file);
  read('c3', edited);
  messages.push({ role: 'assistant', content: 'Clamped bucket 120.' });
  return JSON.stringify({ model: 'gpt-5', messages });
}

describe('distil savings (real binary)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-savings-'));
  const body = join(dir, 'request.json');
  writeFileSync(body, requestBody());

  it("prints the spec's table for a trajectory", () => {
    const { status, stdout } = run(['savings', '--trajectory', body, '--pricing', 'claude-sonnet-4-5']);
    expect(status).toBe(0);
    expect(stdout).toContain('strategy');
    for (const label of [
      'baseline (no cache, no compress)',
      'cache only',
      'naive compress + cache',
      'distil (cache-aware)',
    ]) {
      expect(stdout).toContain(label);
    }
    expect(stdout).toMatch(/distil vs cache only: \d+\.\d% of \$ saved/);
  });

  it('prints JSON reports with per-turn figures, and per-turn tables with --strategies', () => {
    const json = run(['savings', '--trajectory', body, '--json']);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      model: string;
      reports: { strategies: { strategy: string; turns: unknown[] }[] }[];
    };
    expect(parsed.model).toBe('claude-sonnet-4-5');
    const strategies = parsed.reports[0]!.strategies;
    expect(strategies.map((s) => s.strategy)).toEqual(['baseline', 'cache-only', 'naive', 'distil']);
    expect(strategies[3]!.turns).toHaveLength(5);
    const perTurn = run(['savings', '--trajectory', body, '--strategies']);
    expect(perTurn.stdout).toContain('cache read');
  });

  it('names the field for an unknown model', () => {
    const { status, stderr } = run(['savings', '--trajectory', body, '--pricing', 'no-such-model']);
    expect(status).toBe(1);
    expect(stderr).toContain('pricing.model: unknown model "no-such-model"');
  });
});
