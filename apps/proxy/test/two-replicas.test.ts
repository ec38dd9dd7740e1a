import { SalienceKeepModel } from '@distil/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisTestServer,
  redisServerAvailable,
  startRedisTestServer,
} from '../../../packages/core/src/store/redis-test-server.js';
import { type RunningProxy, startProxy } from '../src/index.js';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

const LOG = buildLog(300, 'ci');
const headers = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

function post(proxy: RunningProxy, messages: unknown[]): Promise<Response> {
  return fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 50, messages }),
  });
}

const expandCall = (handle: string) => ({
  kind: 'anthropic' as const,
  content: [{ type: 'tool_use' as const, id: 'toolu_e', name: 'distil_expand', input: { handle } }],
});

const HAVE_REDIS = redisServerAvailable();
// In CI the server is installed by .ci/run: a missing binary there is a failure, not a skip.
if (!HAVE_REDIS && process.env['CI'] === 'true')
  throw new Error('redis-server is not installed (CI installs it in .ci/run)');
if (!HAVE_REDIS) console.warn('\n!!! SKIPPING two-replicas.test.ts — redis-server is not installed\n');

describe.skipIf(!HAVE_REDIS)('two proxy replicas sharing one Redis', () => {
  let redis: RedisTestServer;
  let upstream: FakeUpstream;
  let a: RunningProxy;
  let b: RunningProxy;

  beforeAll(async () => {
    redis = await startRedisTestServer();
    upstream = await new FakeUpstream().start();
    const replica = () =>
      startProxy({
        port: 0,
        learn: false, // nothing learned from or into the real Distil home
        anthropicUpstream: upstream.url,
        config: { restoreStore: { type: 'redis', url: redis.url } },
        keepModel: new SalienceKeepModel(),
        log: () => {},
      });
    a = await replica();
    b = await replica();
  }, 30_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await upstream?.close();
    await redis?.stop();
  });

  it('a fold made through one replica is expanded through the other', async () => {
    // Replica A folds the log; the model sees only the stub.
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'noted' }] });
    const folded = await post(a, [
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: LOG }] },
    ]);
    expect(folded.status).toBe(200);
    const seenByModel = upstream.received[0]!.json.messages[2].content[0].content as string;
    const handle = firstHandle(seenByModel);

    // Replica B never saw the original: its context carries only A's folded text (as an agent relays it).
    upstream.script(expandCall(handle), (request: ReceivedRequest) => ({
      kind: 'anthropic',
      content: [
        { type: 'text', text: `got ${request.json.messages.at(-1).content[0].content.length} chars` },
      ],
    }));
    const expanded = await post(b, [
      { role: 'user', content: 'what did the earlier run print?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_notes', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: seenByModel }] },
    ]);
    const reply = (await expanded.json()) as { content: { type: string; text?: string }[] };
    expect(reply.content.map((part) => part.type)).toEqual(['text']);
    const answer = upstream.received[2]!.json.messages.at(-1).content[0];
    expect(answer).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_e' });
    expect(answer.is_error).toBeUndefined();
    expect(LOG).toContain(answer.content);
    expect(answer.content).toContain('INFO ci step 100: compiled module_100.ts');
  });

  it('a replica with its own memory store cannot expand it: the model gets an error result', async () => {
    upstream.reset();
    const lonely = await startTestProxy(upstream);
    try {
      upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'noted' }] });
      await post(a, [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: LOG }] },
      ]);
      const seenByModel = upstream.received[0]!.json.messages[2].content[0].content as string;
      upstream.script(expandCall(firstHandle(seenByModel)), {
        kind: 'anthropic',
        content: [{ type: 'text', text: 'no luck' }],
      });
      await post(lonely, [
        { role: 'user', content: 'what did the earlier run print?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_notes', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: seenByModel }] },
      ]);
      const answer = upstream.received[2]!.json.messages.at(-1).content[0];
      expect(answer.is_error).toBe(true);
      expect(answer.content).toMatch(/unknown handle/);
    } finally {
      await lonely.close();
    }
  });
});
