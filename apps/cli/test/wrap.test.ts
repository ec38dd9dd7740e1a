import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream, type ReceivedRequest } from '../../proxy/test/fake-upstream.js';
import { runCliAsync } from './run-cli-async.js';

const ANTHROPIC_SDK = pathToFileURL(createRequire(import.meta.url).resolve('@anthropic-ai/sdk')).href;

// An agent-like script: it knows nothing of Distil, it only uses the Anthropic SDK, which reads
// ANTHROPIC_BASE_URL from the environment — exactly what `distil wrap` sets.
const SCRIPT = `
import Anthropic from ${JSON.stringify(ANTHROPIC_SDK)};
const lines = [];
for (let i = 0; i < 300; i++) lines.push(i === 150 ? 'ERROR ci: test_widget_150 failed' : 'INFO ci step ' + i + ': compiled module_' + i + '.ts');
const client = new Anthropic({ apiKey: 'sk-ant-wrapped-script', maxRetries: 0 });
const message = await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [
    { role: 'user', content: 'fix it' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: lines.join('\\n') }] },
  ],
});
console.log('model said: ' + message.content[0].text);
console.log('base url: ' + process.env.ANTHROPIC_BASE_URL + ' ' + process.env.OPENAI_BASE_URL);
process.exit(Number(process.argv[2] ?? 0));
`;

describe('distil wrap -- node script.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-wrap-'));
  const script = join(dir, 'script.mjs');
  const env = { DISTIL_HOME: join(dir, 'home') };
  let upstream: FakeUpstream;

  beforeAll(async () => {
    writeFileSync(script, SCRIPT);
    upstream = await new FakeUpstream().start();
    // Any number of requests (a shadow twin included) get the same answer, with billed usage.
    upstream.script(
      ...Array.from({ length: 20 }, () => (_request: ReceivedRequest) => ({
        kind: 'anthropic' as const,
        content: [{ type: 'text' as const, text: 'The widget test failed.' }],
        usage: {
          input_tokens: 500,
          output_tokens: 12,
          cache_creation_input_tokens: 2500,
          cache_read_input_tokens: 0,
        },
      })),
    );
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the script through a temporary proxy, prints what it saved and exits with its status', async () => {
    const run = await runCliAsync(['wrap', '--anthropic-upstream', upstream.url, '--', 'node', script], env);
    expect(run.stderr).not.toMatch(/distil: /);
    expect(run.status).toBe(0);
    // The script's own output is untouched on stdout.
    expect(run.stdout).toContain('model said: The widget test failed.');
    const base = /base url: (http:\/\/127\.0\.0\.1:(\d+)) (\S+)/.exec(run.stdout);
    expect(base?.[3]).toBe(`${base?.[1]}/v1`);
    expect(base?.[1]).not.toBe(upstream.url);
    // The request reached the upstream through the proxy, compressed, with the script's own key.
    const sent = upstream.received.find((r) => r.body.includes('handle=dh_'));
    expect(sent?.body).toContain('ERROR ci: test_widget_150 failed');
    expect(JSON.stringify(sent?.headers)).toContain('sk-ant-wrapped-script');
    // The summary on stderr: one request, tokens removed, dollars from billed usage.
    expect(run.stderr).toMatch(/`node .*script\.mjs` exited with 0/);
    expect(run.stderr).toMatch(/requests\s+1\n/);
    expect(Number(/tokens removed\s+([\d,]+)/.exec(run.stderr)?.[1]?.replace(/,/g, ''))).toBeGreaterThan(
      1000,
    );
    expect(run.stderr).toMatch(/saved\s+\$0\.\d{4}/);
    // The proxy is gone once the command has exited.
    await expect(fetch(`${base?.[1]}/distil/health`)).rejects.toThrow();
  }, 60_000);

  it('passes the command’s exit status through and gives the summary as JSON', async () => {
    const run = await runCliAsync(
      ['wrap', '--json', '--no-shadow', '--anthropic-upstream', upstream.url, '--', 'node', script, '3'],
      env,
    );
    expect(run.status).toBe(3);
    const summary = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
      exitCode: number;
      totals: { requests: number; savedTokens: number; savedUsd: number };
    };
    expect(summary.exitCode).toBe(3);
    expect(summary.totals.requests).toBe(1);
    expect(summary.totals.savedTokens).toBeGreaterThan(1000);
    expect(summary.totals.savedUsd).toBeGreaterThan(0);
  }, 60_000);
});
