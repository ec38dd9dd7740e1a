import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnthropicRunner,
  ablate,
  NEXT_STEP_PROMPT,
  OpenAIRunner,
  replayTurns,
  resolveRunner,
  UpstreamError,
} from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';
import { block, call, trajectory } from './fixtures.js';

const upstream = new FakeUpstream();
beforeAll(() => upstream.start());
afterAll(() => upstream.stop());

const run = trajectory('live', [
  [
    [
      block('system', 'You debug services.', { role: 'system', kind: 'chat', trusted: true }),
      block('task', 'Find the secret file.', { role: 'user', kind: 'chat', trusted: true }),
      block('doc', 'A runbook about TLS.', { role: 'user', kind: 'doc' }),
      block('obs', 'found /etc/SECRET-42 on disk', { tool: 'ls' }),
    ],
    call('read_file', { path: '/etc/SECRET-42' }),
  ],
]);
const [turn] = replayTurns(run);
const freshCache = (): string => mkdtempSync(join(tmpdir(), 'distil-replay-cache-'));
const noBackoff = { backoffMs: 0 };

describe('the Anthropic runner (fake Messages API on 127.0.0.1)', () => {
  it('sends a temperature-0 Messages request and reads tool_use as the decision', async () => {
    const runner = new AnthropicRunner({
      apiKey: 'test-key',
      baseUrl: upstream.url,
      model: 'claude-test',
      retry: noBackoff,
    });
    const before = upstream.received.length;
    const replayed = await runner.decide(turn!.reference, turn!);
    expect(replayed).toEqual({ kind: 'decision', decision: call('read_file', { path: '/etc/SECRET-42' }) });
    const request = upstream.received[before]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toMatchObject({
      model: 'claude-test',
      temperature: 0,
      max_tokens: 1024,
      system: 'You debug services.',
    });
    expect(request.body['tools']).toEqual([
      {
        name: 'read_file',
        description: 'The read_file tool of the recorded run.',
        input_schema: { type: 'object', additionalProperties: true },
      },
    ]);
    const messages = request.body['messages'] as { role: string; content: string }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.role).toBe('user');
    expect(messages[0]!.content).toContain('[tool result: ls]\nfound /etc/SECRET-42 on disk');
    expect(messages[0]!.content.endsWith(NEXT_STEP_PROMPT)).toBe(true);
    expect(runner.id).toBe('anthropic:claude-test');
  });

  it('reads a text-only answer as a final answer', async () => {
    const runner = new AnthropicRunner({ apiKey: 'test-key', baseUrl: upstream.url });
    const replayed = await runner.decide(
      turn!.reference.filter((b) => b.id !== 'obs'),
      turn!,
    );
    expect(replayed).toEqual({ kind: 'decision', decision: { type: 'final', text: 'Nothing left to do.' } });
  });

  it('answers a repeated request from the content-hash cache, across runner instances', async () => {
    const folder = freshCache();
    const first = new AnthropicRunner({ apiKey: 'test-key', baseUrl: upstream.url, cacheFolder: folder });
    const before = upstream.received.length;
    await first.decide(turn!.reference, turn!);
    await first.decide(turn!.reference, turn!);
    expect([first.calls, first.cacheHits]).toEqual([1, 1]);
    const second = new AnthropicRunner({ apiKey: 'test-key', baseUrl: upstream.url, cacheFolder: folder });
    expect(await second.decide(turn!.reference, turn!)).toMatchObject({ kind: 'decision' });
    expect([second.calls, second.cacheHits]).toEqual([0, 1]);
    expect(upstream.received.length - before).toBe(1);
    const shards = readdirSync(folder);
    expect(shards).toHaveLength(1);
    expect(readdirSync(join(folder, shards[0]!))[0]).toMatch(/^[0-9a-f]{64}\.json$/);
    // Another model is another request.
    const other = new AnthropicRunner({
      apiKey: 'test-key',
      baseUrl: upstream.url,
      cacheFolder: folder,
      model: 'claude-other',
    });
    await other.decide(turn!.reference, turn!);
    expect(other.calls).toBe(1);
  });

  it('retries a rate limit after retry-after, and reports other errors without the key', async () => {
    const runner = new AnthropicRunner({ apiKey: 'test-key', baseUrl: upstream.url, retry: noBackoff });
    upstream.failures.push({
      status: 429,
      retryAfter: '0',
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    });
    const before = upstream.received.length;
    expect((await runner.decide(turn!.reference, turn!)).kind).toBe('decision');
    expect(upstream.received.length - before).toBe(2);

    upstream.failures.push({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: bad' } },
    });
    const error = await runner.decide(turn!.reference, turn!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe('anthropic: HTTP 400: messages: bad');
    const wrongKey = new AnthropicRunner({ apiKey: 'sk-wrong-secret', baseUrl: upstream.url });
    const denied = await wrongKey.decide(turn!.reference, turn!).catch((e: unknown) => e);
    expect((denied as Error).message).toContain('HTTP 401');
    expect((denied as Error).message).not.toContain('sk-wrong-secret');
  });
});

describe('the OpenAI-compatible runner (fake Chat Completions API on 127.0.0.1)', () => {
  it('sends a temperature-0 chat request with bearer auth and parses the tool call arguments', async () => {
    const runner = new OpenAIRunner({
      apiKey: 'test-key',
      baseUrl: `${upstream.url}/v1/`,
      model: 'gpt-test',
    });
    const before = upstream.received.length;
    const replayed = await runner.decide(turn!.reference, turn!);
    expect(replayed).toEqual({ kind: 'decision', decision: call('read_file', { path: '/etc/SECRET-42' }) });
    const request = upstream.received[before]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toMatchObject({ model: 'gpt-test', temperature: 0 });
    const messages = request.body['messages'] as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request.body['tools']).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'The read_file tool of the recorded run.',
          parameters: { type: 'object', additionalProperties: true },
        },
      },
    ]);
    const text = await runner.decide(
      turn!.reference.filter((b) => b.id !== 'obs'),
      turn!,
    );
    expect(text).toEqual({ kind: 'decision', decision: { type: 'final', text: 'Nothing left to do.' } });
  });
});

describe('live runners in ablation and through the resolver', () => {
  it('ablation with a live model keeps exactly the block the model needed', async () => {
    const runner = new OpenAIRunner({
      apiKey: 'test-key',
      baseUrl: `${upstream.url}/v1`,
      cacheFolder: freshCache(),
    });
    const report = await ablate(run, { runner });
    expect(report.blocks.map((b) => [b.id, b.changedDecision])).toEqual([
      ['system', false],
      ['task', false],
      ['doc', false],
      ['obs', true],
    ]);
    expect(report.runner).toBe('openai:gpt-4.1-mini');
  });

  it('takes keys and base URLs from the environment, and names a missing key', async () => {
    expect(() => resolveRunner('anthropic', { env: {} })).toThrow(
      '--runner anthropic needs ANTHROPIC_API_KEY in the environment',
    );
    expect(() => resolveRunner('openai', { env: {} })).toThrow('OPENAI_API_KEY');
    expect(() => resolveRunner('gemini')).toThrow(
      'unknown runner "gemini": expected one of structural, anthropic, openai',
    );
    const home = mkdtempSync(join(tmpdir(), 'distil-home-'));
    const runner = resolveRunner('anthropic', {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: upstream.url, DISTIL_HOME: home },
    });
    expect((await runner.decide(turn!.reference, turn!)).kind).toBe('decision');
    expect(existsSync(join(home, 'replay-cache', 'anthropic'))).toBe(true);
    expect(resolveRunner('structural').id).toBe('structural');
  });

  it('maps tool names the APIs refuse to safe ones and back', async () => {
    const odd = trajectory('odd', [
      [[block('o', 'found /etc/SECRET-42')], call('fs.read', { path: '/etc/SECRET-42' })],
    ]);
    const [t] = replayTurns(odd);
    const runner = new AnthropicRunner({ apiKey: 'test-key', baseUrl: upstream.url });
    const before = upstream.received.length;
    await runner.decide(t!.reference, t!);
    expect((upstream.received[before]!.body['tools'] as { name: string }[])[0]!.name).toBe('fs_read');
  });
});
