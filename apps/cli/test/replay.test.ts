import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// Each test starts the binary several times (a tsx start is 1–3 s on a busy machine).
const SLOW = { timeout: 120_000 };

import { type CliRun, runCli } from './run-cli.js';

const tool = (id: string, text: string) => ({ id, role: 'tool', kind: 'tool_output', text, trusted: false });
const doc = (id: string, text: string) => ({ id, role: 'user', kind: 'doc', text, trusted: false });
const call = (name: string, args: Record<string, unknown>) => ({
  type: 'tool_call',
  tool: name,
  arguments: args,
});

/** An incident run in the spec's shape; `noisy` adds a long log so the digest has something to fold. */
function incident(id: string, outcome: 'pass' | 'fail' | null = null) {
  const noise = Array.from(
    { length: 120 },
    (_, i) => `DEBUG worker ${i % 7} polled the queue: nothing to do`,
  ).join('\n');
  return {
    format: 'distil.trajectory/v1',
    id,
    outcome,
    turns: [
      {
        blocks: [
          {
            id: 'system',
            role: 'system',
            kind: 'chat',
            text: 'Tools: kubectl(args), logs(pod), exec(pod, command).',
            trusted: true,
          },
          doc('doc-0', '# Runbook: TLS\nRenew the certificate with cert-manager.'),
          doc('doc-1', '# Runbook: Kafka lag\nDescribe the consumer group.'),
        ],
        decision: call('kubectl', { args: 'get pods -n payments' }),
      },
      {
        blocks: [tool('obs-0', 'NAME STATUS\nledger-writer-7f9c-x2x CrashLoopBackOff\npg-ledger-0 Running')],
        decision: call('logs', { pod: 'ledger-writer-7f9c-x2x' }),
      },
      {
        blocks: [tool('obs-1', `${noise}\nerror: No space left on device at /var/lib/pg/data\n${noise}`)],
        decision: { type: 'final', text: 'DECISION: /var/lib/pg/data is full on pg-ledger-0.' },
      },
    ],
  };
}

function writeTrajectory(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe('distil prune / frontier (real binary)', SLOW, () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-replay-cli-'));
  const file = writeTrajectory(dir, 'incident.json', incident('sre-disk-incident'));

  it("prints the spec's ablation table and the tokens free to drop", () => {
    const run = runCli(['prune', '--trajectory', file]);
    expect(run.stderr).not.toContain('distil: ');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("causal ablation over 'sre-disk-incident' — what is free to drop?");
    expect(run.stdout).toMatch(/block\s+occ\s+tokens\s+verdict/);
    expect(run.stdout).toMatch(/doc-0\s+3\s+\d+\s+PRUNE \(structural: no copied token lost\)/);
    expect(run.stdout).toMatch(/obs-0\s+2\s+\d+\s+keep \(structural: changed a decision\)/);
    expect(run.stdout).toMatch(/system\s+3\s+\d+\s+keep \(trusted: the task or instructions\)/);
    expect(run.stdout).toMatch(
      /tokens free to drop under the structural runner \(no copied token lost; not certified .*\): \d+ across 2 block\(s\)\./,
    );
    expect(run.stdout).not.toMatch(/provably|certified free/);
    const json = JSON.parse(runCli(['prune', '--trajectory', file, '--json']).stdout);
    expect(json.reports[0].freeBlocks).toBe(2);
    expect(json.runner).toBe('structural');
    expect(json.certified).toBe(false);
    expect(json.reports[0].blocks.find((b: { id: string }) => b.id === 'doc-0').verdict).toBe(
      'PRUNE (structural: no copied token lost)',
    );
  });

  it('traces the frontier as a table and an SVG file', () => {
    const svg = join(dir, 'plot.svg');
    const run = runCli(['frontier', '--trajectory', file, '--svg', svg, '--targets', '1,0.5,0']);
    expect(run.stderr).not.toContain('distil: ');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/target\s+budget\s+divergent\s+equivalence\s+tokens\s+saved\s+savings/);
    expect(run.stdout).toMatch(/^\s+1\s+0\s+0\s+100\.0%/m);
    expect(run.stdout).toContain(`plot written to ${svg}`);
    expect(readFileSync(svg, 'utf8')).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>\n$/,
    );
    const json = JSON.parse(runCli(['frontier', '--trajectory', file, '--svg', svg, '--json']).stdout);
    expect(json.frontier[0]).toMatchObject({ target: 1, divergent: 0, equivalence: 1 });
    expect(json.trajectories[0].turns).toHaveLength(3);
  });

  it('writes no file into the current folder unless --svg asks for a plot', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'distil-frontier-cwd-'));
    const run = runCli(['frontier', '--trajectory', file, '--targets', '1,0'], {
      cwd,
      env: { DISTIL_HOME: join(dir, 'home') },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/target\s+budget/);
    expect(run.stdout).not.toContain('plot written');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('reads a folder of trajectories and rejects bad flags with a message', () => {
    const folder = join(dir, 'many');
    mkdirSync(folder);
    writeTrajectory(folder, 'a.json', incident('a'));
    writeTrajectory(folder, 'b.json', incident('b'));
    const run = runCli(['prune', '--trajectory', folder]);
    expect(run.stdout).toContain('summary over 2 trajectories');
    expect(runCli(['frontier', '--trajectory', file, '--targets', '1.5']).stderr).toContain(
      'distil: --targets must be numbers in [0, 1]',
    );
    const keyless = runCli(['prune', '--trajectory', file, '--runner', 'anthropic'], {
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toContain('distil: --runner anthropic needs ANTHROPIC_API_KEY in the environment');
  });
});

describe('distil certify-trajectories / learn (real binary)', SLOW, () => {
  it('decides non-inferiority on matched runs and feeds the guideline flywheel', () => {
    const root = mkdtempSync(join(tmpdir(), 'distil-certify-cli-'));
    const home = join(root, 'home');
    const full = join(root, 'full');
    const compressed = join(root, 'compressed');
    mkdirSync(full);
    mkdirSync(compressed);
    const folded = (id: string, outcome: 'pass' | 'fail') => {
      const run = incident(id, outcome);
      run.turns[2]!.blocks[0]!.text = `head\n<< +230 lines, handle=dh_0123456789ab >>\ntail`;
      return run;
    };
    for (let i = 0; i < 30; i++) {
      writeTrajectory(full, `t${i}.json`, incident(`t${i}`, i < 25 ? 'pass' : 'fail'));
      writeTrajectory(compressed, `t${i}.json`, folded(`t${i}`, i < 8 || i >= 25 ? 'fail' : 'pass'));
    }
    const env = { DISTIL_HOME: home };
    const run = runCli(
      ['certify-trajectories', '--full', full, '--compressed', compressed, '--margin', '0.1'],
      { env },
    );
    expect(run.stderr).not.toContain('distil: ');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('matched runs: 30 pair(s)');
    expect(run.stdout).toMatch(/full pass\s+17\s+8/);
    expect(run.stdout).toContain('Tango score 90% interval for the difference: [');
    expect(run.stdout).toContain('verdict: NOT SHOWN');
    expect(run.stdout).toContain('suspects: tool_output:l; newly protected: tool_output:l');
    const json = JSON.parse(
      runCli(['certify-trajectories', '--full', full, '--compressed', compressed, '--json', '--no-learn'], {
        env,
      }).stdout,
    );
    expect(json.table).toEqual({ bothPass: 17, compressedOnly: 0, fullOnly: 8, bothFail: 5 });
    expect(json.test.test).toBe('tango-score');
    expect(json.test.difference.lower).toBeLessThan(json.test.difference.estimate);

    const learn = runCli(['learn'], { env });
    expect(learn.status).toBe(0);
    expect(learn.stdout).toContain('1 protected signature(s)');
    expect(learn.stdout).toMatch(/tool_output:l\s+0\s+0\s+—\s+30\s+8\s+protected \(regressions\)/);
    expect(JSON.parse(runCli(['learn', '--json'], { env }).stdout).protected).toEqual(['tool_output:l']);
    expect(runCli(['learn'], { env: { DISTIL_HOME: join(root, 'empty') } }).stdout).toContain(
      'nothing learned yet',
    );
    expect(
      runCli(['certify-trajectories', '--full', join(root, 'nope'), '--compressed', compressed]).stderr,
    ).toContain('is not a folder');
  });
});

/** The binary in a child process without blocking this one (the fake upstream below must keep serving). */
function runCliAsync(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', tsx, bin, ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('distil prune --runner anthropic (real binary, fake Messages API)', SLOW, () => {
  it('asks the model, caches its answers, and keeps the block the model needed', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests++;
        const sees = body.includes('ledger-writer-7f9c-x2x');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: sees
              ? [{ type: 'tool_use', id: 'toolu_1', name: 'logs', input: { pod: 'ledger-writer-7f9c-x2x' } }]
              : [{ type: 'text', text: 'I need more information.' }],
            stop_reason: sees ? 'tool_use' : 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'distil-live-cli-'));
    const file = writeTrajectory(dir, 'incident.json', incident('sre-disk-incident'));
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url, DISTIL_HOME: join(dir, 'home') };
    try {
      const first = await runCliAsync(
        ['prune', '--trajectory', file, '--runner', 'anthropic', '--json'],
        env,
      );
      expect(first.status).toBe(0);
      const report = JSON.parse(first.stdout).reports[0];
      expect(report.runner).toBe('anthropic:claude-sonnet-4-5');
      expect(report.certified).toBe(true);
      const obs0 = report.blocks.find((b: { id: string }) => b.id === 'obs-0');
      expect(obs0.changedDecision).toBe(true);
      expect(first.stderr).toMatch(/anthropic:claude-sonnet-4-5: \d+ model call\(s\)/);
      const made = requests;
      const second = await runCliAsync(['prune', '--trajectory', file, '--runner', 'anthropic'], env);
      expect(second.status).toBe(0);
      expect(second.stdout).toContain('tokens certified free to drop by anthropic:claude-sonnet-4-5:');
      expect(requests).toBe(made); // every answer came from the cache
      expect(existsSync(join(dir, 'home', 'replay-cache', 'anthropic'))).toBe(true);
    } finally {
      server.close();
    }
  });
});
