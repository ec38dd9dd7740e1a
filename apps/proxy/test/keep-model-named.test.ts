import Anthropic from '@anthropic-ai/sdk';
import { LogisticKeepModel } from '@distil/codec';
import type { ContentKind, KeepContext, KeepModel } from '@distil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_HEADER, type RequestSavings } from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, startTestProxy } from './fixtures.js';

const TOKEN = 'keep-model-admin-token-0123456789';

/** The shipped logistic model, remembering the context each call gave it. */
class ContextSeen implements KeepModel {
  readonly model = LogisticKeepModel.load();
  readonly id = this.model.id;
  readonly wholeBlock = this.model.wholeBlock;
  readonly contexts: (KeepContext | undefined)[] = [];
  scoreLines(lines: readonly string[], kind: ContentKind, context?: KeepContext): Promise<Float32Array> {
    this.contexts.push(context);
    return this.model.scoreLines(lines, kind, context);
  }
}

describe('the keep model that decided, through the proxy', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  const model = new ContextSeen();
  const seen: RequestSavings[] = [];

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, {
      keepModel: model,
      config: { proxy: { adminToken: TOKEN } },
      onRequest: (savings) => seen.push(savings),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('gets the request trusted texts and the input of the call behind each output as its context, and is named in the per-request record and the dashboard', async () => {
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'fix the failing ci job' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'cat ci.log' } },
            { type: 'tool_use', id: 't2', name: 'bash', input: { command: 'cat build.log' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: buildLog(400, 'ci') },
            { type: 'tool_result', tool_use_id: 't2', content: buildLog(300, 'build') },
          ],
        },
      ],
    });
    // each output is scored with the input of the call that produced it
    const recent = ['{"command":"cat ci.log"}', '{"command":"cat build.log"}'];
    expect(model.contexts).toContainEqual({
      task: 'fix the failing ci job',
      recent,
      input: '{"command":"cat ci.log"}',
    });
    expect(model.contexts).toContainEqual({
      task: 'fix the failing ci job',
      recent,
      input: '{"command":"cat build.log"}',
    });
    // the per-request record names the model, beside what it removed; nothing goes to the problem log
    expect(seen.at(-1)).toMatchObject({ keepModel: model.id });
    expect(seen.at(-1)!.savedTokens.fresh).toBeGreaterThan(0);
    expect(proxy.logs).toEqual([]);
    const admin = { [ADMIN_TOKEN_HEADER]: TOKEN };
    const data = (await (await fetch(`${proxy.url}/distil/dashboard.json`, { headers: admin })).json()) as {
      keepModel: unknown;
    };
    expect(data.keepModel).toEqual({ id: model.id, fallback: false });
    const page = await (await fetch(`${proxy.url}/dashboard`, { headers: admin })).text();
    expect(page).toContain(`data-metric="keep-model">${model.id}<`);
  });
});
