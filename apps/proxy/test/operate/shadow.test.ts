import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { readShadowStats, shadowFolder, wilsonInterval } from '../../src/index.js';
import { FakeUpstream, type ReceivedRequest } from '../fake-upstream.js';
import { buildLog, startTestProxy } from '../fixtures.js';

const LOG = buildLog(300, 'ci');
const homes: string[] = [];
const freshHome = (): string => {
  const home = mkdtempSync(join(tmpdir(), 'distil-shadow-'));
  homes.push(home);
  return home;
};
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** Mulberry32 (T. Ettinger, 2017): a small seeded PRNG, so sampling and the scripted divergences repeat. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const taskOf = (body: string): number => Number(/task (\d+)/.exec(body)?.[1] ?? -1);
/** The proxy folded the log (its request shows a stub): this is the compressed request, not the shadow. */
const compressed = (request: ReceivedRequest): boolean => request.body.includes('handle=dh_');

describe('shadow mode against the fake upstream', () => {
  it('reports a divergence rate whose Wilson interval contains the true, scripted rate', async () => {
    const TASKS = 120;
    const TRUE_P = 0.25;
    const scripted = mulberry32(2024);
    const divergent = Array.from({ length: TASKS }, () => scripted() < TRUE_P);
    const trueRate = divergent.filter(Boolean).length / TASKS;

    const upstream = await new FakeUpstream().start();
    // Every request the fake sees — client, expand continuation or shadow — is answered by content: the
    // compressed request runs the test; its uncompressed twin does the same (arguments reordered and a
    // number quoted, which normalisation must ignore) unless the task is scripted to diverge.
    const reply = (request: ReceivedRequest) => {
      const i = taskOf(request.body);
      const args = compressed(request)
        ? { cmd: `pytest -k widget_${i}`, timeout: 30 }
        : divergent[i]
          ? { cmd: 'cat build.log', timeout: 30 }
          : { timeout: '30', cmd: `pytest -k widget_${i} ` };
      return {
        kind: 'anthropic' as const,
        content: [{ type: 'tool_use' as const, id: `toolu_${i}`, name: 'bash', input: args }],
      };
    };
    upstream.script(...Array.from({ length: TASKS * 3 }, () => reply));
    const home = freshHome();
    const proxy = await startTestProxy(upstream, {
      home,
      shadow: { sampleRate: 0.5, random: mulberry32(7) },
    });
    const client = new Anthropic({ apiKey: 'sk-ant-shadow-secret', baseURL: proxy.url, maxRetries: 0 });
    try {
      for (let i = 0; i < TASKS; i++) {
        const params = {
          model: 'claude-sonnet-4-6',
          max_tokens: 100,
          messages: [
            { role: 'user' as const, content: `task ${i}: fix the build` },
            {
              role: 'assistant' as const,
              content: [
                { type: 'tool_use' as const, id: `toolu_make_${i}`, name: 'bash', input: { cmd: 'make' } },
              ],
            },
            {
              role: 'user' as const,
              content: [{ type: 'tool_result' as const, tool_use_id: `toolu_make_${i}`, content: LOG }],
            },
          ],
        };
        // Half the conversations stream: the comparison reads the decision out of the event stream.
        const message =
          i % 2 === 0
            ? await client.messages.create(params)
            : await client.messages.stream(params).finalMessage();
        expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'bash' });
      }
    } finally {
      await proxy.close();
      await upstream.close();
    }

    // The shadow twins went out uncompressed and whole: no stub, no stream (closing waited for them).
    const twins = upstream.received.filter((r) => !compressed(r));
    const sampledTasks = twins.map((twin) => taskOf(twin.body));
    for (const twin of twins) {
      expect(twin.json.stream).toBe(false);
      expect(twin.body).toContain('ERROR ci: test_widget_150 failed');
      expect(twin.json.tools).toBeUndefined();
      const { authorization, 'x-api-key': apiKey } = twin.headers;
      expect(`${authorization ?? ''} ${apiKey ?? ''}`).toContain('sk-ant-shadow-secret');
    }
    const stats = readShadowStats(home);
    // Which requests went out twice is exactly what the ledger counted, and every one was compared.
    expect(stats.sampled).toBe(sampledTasks.length);
    expect(stats.compared).toBe(sampledTasks.length);
    expect(stats.sampled).toBeGreaterThan(40);
    expect(stats.sampled).toBeLessThan(80);
    // The detector counted exactly the scripted divergences among the sampled requests …
    expect(stats.diverged).toBe(sampledTasks.filter((i) => divergent[i]).length);
    expect(stats.classes).toEqual({ tool_arguments: stats.diverged });
    // … and its 95% interval contains the true rate over all requests.
    const interval = wilsonInterval(stats.diverged, stats.compared);
    process.stdout.write(
      `shadow: ${stats.diverged}/${stats.compared} sampled decisions diverged, 95% Wilson [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}], true rate ${trueRate.toFixed(3)} over ${TASKS}\n`,
    );
    expect(interval.low).toBeLessThanOrEqual(trueRate);
    expect(interval.high).toBeGreaterThanOrEqual(trueRate);
    // Records are content-free: no command, no log line, no credential.
    expect(stats.runs).toBe(1);
    for (const name of readdirSync(shadowFolder(home))) {
      const text = readFileSync(join(shadowFolder(home), name), 'utf8');
      for (const secret of ['pytest', 'build.log', 'widget', 'ERROR', 'sk-ant', 'task ']) {
        expect(text).not.toContain(secret);
      }
    }
  }, 60_000);
});

describe('shadow mode on the OpenAI routes', () => {
  it('compares Chat Completions and Responses decisions, streamed or not, and skips stored continuations', async () => {
    const upstream = await new FakeUpstream().start();
    // Task 1 and 3 diverge on the uncompressed twin (a different answer / a different tool).
    upstream.script(
      ...Array.from({ length: 20 }, () => (request: ReceivedRequest) => {
        const i = taskOf(request.body);
        const twin = !compressed(request);
        if (request.path.startsWith('/v1/chat')) {
          return {
            kind: 'openai' as const,
            content: twin && i === 1 ? 'Line 150 fails.' : 'The widget test fails.',
          };
        }
        const name = twin && i === 3 ? 'apply_patch' : 'shell';
        return {
          kind: 'responses' as const,
          output: [
            { type: 'function_call' as const, call_id: `call_${i}`, name, arguments: '{"cmd":"pytest"}' },
          ],
        };
      }),
    );
    const home = freshHome();
    const proxy = await startTestProxy(upstream, { home, shadow: { sampleRate: 1 } });
    const client = new OpenAI({ apiKey: 'sk-openai-shadow', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const chat = (i: number): OpenAI.ChatCompletionMessageParam[] => [
      { role: 'user', content: `task ${i}: fix it` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `call_make_${i}`, type: 'function', function: { name: 'bash', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: `call_make_${i}`, content: LOG },
    ];
    const input = (i: number): OpenAI.Responses.ResponseInput => [
      { role: 'user', content: `task ${i}: fix it` },
      { type: 'function_call', call_id: `call_make_${i}`, name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: `call_make_${i}`, output: LOG },
    ];
    try {
      await client.chat.completions.create({ model: 'gpt-4o', messages: chat(0) });
      const streamed = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: chat(1),
        stream: true,
      });
      for await (const _chunk of streamed) {
        // drained: the shadow compares what the client received
      }
      await client.responses.create({ model: 'gpt-5', input: input(2) });
      const events = await client.responses.create({ model: 'gpt-5', input: input(3), stream: true });
      for await (const _event of events) {
        // drained
      }
      await client.responses.create({ model: 'gpt-5', input: input(4), previous_response_id: 'resp_1' });
      const live = (await (await fetch(`${proxy.url}/distil/shadow`)).json()) as { sampleRate: number };
      expect(live.sampleRate).toBe(1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
    const stats = readShadowStats(home);
    expect(stats.sampled).toBe(5);
    expect(stats.endpoints).toEqual({
      '/v1/chat/completions': { compared: 2, diverged: 1 },
      '/v1/responses': { compared: 2, diverged: 1 },
    });
    expect(stats.classes).toEqual({ answer_text: 1, tool_name: 1 });
    expect(stats.skipped).toEqual({ continuation: 1 });
    const twins = upstream.received.filter((r) => !compressed(r));
    expect(twins.map((r) => r.json.stream)).toEqual([false, false, false, false]);
    expect(twins.filter((r) => r.path === '/v1/responses').every((r) => r.json.store === false)).toBe(true);
    expect(twins.find((r) => r.path.startsWith('/v1/chat'))?.json.stream_options).toBeUndefined();
  }, 30_000);
});
