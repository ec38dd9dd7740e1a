import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestSavings, uncompressedUsage } from '../src/index.js';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

describe('savings from billed usage', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  const seen: RequestSavings[] = [];

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, { onRequest: (savings) => seen.push(savings) });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('prices the billed usage and the uncompressed estimate with the catalog', async () => {
    upstream.script({
      kind: 'anthropic',
      content: [{ type: 'text', text: 'ok' }],
      usage: {
        input_tokens: 500,
        output_tokens: 10,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 0,
      },
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 });
    const { response } = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'fix it' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't1', content: buildLog(400, 'ci') }],
          },
        ],
      })
      .withResponse();
    const saved = Number(response.headers.get('x-distil-saved-tokens'));
    expect(saved).toBeGreaterThan(2000);
    const record = seen.at(-1)!;
    expect(record.billed).toEqual({ input: 500, cacheWrite: 2000, cacheRead: 0, output: 10 });
    expect(record.savedTokens.fresh).toBe(saved);
    // Sonnet 4.6 list prices: $3 input, $3.75 5-minute cache write, $15 output per million tokens.
    expect(record.actualUsd).toBeCloseTo((500 * 3 + 2000 * 3.75 + 10 * 15) / 1e6, 9);
    expect(record.savedUsd!).toBeGreaterThan(0);
    const totals = (await (await fetch(`${proxy.url}/distil/savings`)).json()) as {
      requests: number;
      savedUsd: number;
    };
    expect(totals.requests).toBe(1);
    expect(totals.savedUsd).toBeCloseTo(record.savedUsd!, 9);
  });

  it('takes what Distil added out of the estimate: its tools, and expansions spliced back in later turns', async () => {
    const usage = {
      input_tokens: 20_000,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    const log = buildLog(400, 'spliced');
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: log }] },
    ];
    const tools = [{ name: 'bash', input_schema: { type: 'object' as const } }];
    const base = upstream.received.length;
    upstream.script(
      (request: ReceivedRequest) => ({
        kind: 'anthropic',
        content: [
          {
            type: 'tool_use',
            id: 'tx',
            name: 'distil_expand',
            input: { handle: firstHandle(JSON.stringify(request.json.messages)) },
          },
        ],
        usage,
      }),
      { kind: 'anthropic', content: [{ type: 'text', text: 'found it' }], usage },
      { kind: 'anthropic', content: [{ type: 'text', text: 'ok' }], usage },
    );
    const client = new Anthropic({
      apiKey: 'k',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-distil-session': 'ledger-splice' },
    });
    const first = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      tools,
      messages: history,
    });
    const turnOne = seen.at(-1)!;
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      tools,
      messages: [
        ...history,
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'thanks' },
      ],
    });
    const turnTwo = seen.at(-1)!;
    // What each estimate took out for Distil's additions: billed + removed − uncompressed (input side).
    const added = (r: RequestSavings, billed: number): number =>
      billed +
      r.savedTokens.fresh +
      r.savedTokens.repeat -
      (r.uncompressed.input + r.uncompressed.cacheWrite + r.uncompressed.cacheRead);
    const toolsOnly = added(turnOne, 20_000);
    expect(toolsOnly).toBeGreaterThan(0);
    // The second request carries the expansion the model asked for: it is Distil's, not the client's.
    const expansion = upstream.received[base + 1]!.json.messages.at(-1).content[0].content as string;
    expect(added(turnTwo, 20_000) - toolsOnly).toBeGreaterThanOrEqual(countTokens(expansion));
  });

  it('puts removed tokens back where they would have been billed, less the added tool definitions', () => {
    const usage = uncompressedUsage({
      provider: 'anthropic',
      model: 'm',
      calls: [
        { input: 100, cacheWrite: 1000, cacheRead: 5000, output: 50 },
        { input: 10, cacheWrite: 0, cacheRead: 6000, output: 20 },
      ],
      savedFresh: 700,
      savedRepeat: 3000,
      injectedTokens: 150,
      expands: 1,
    });
    expect(usage).toEqual({ input: 100, cacheWrite: 1700, cacheRead: 7850, output: 70 });
  });

  it('keeps every removed token in the estimate when the billed call shows fewer tokens than Distil added', () => {
    const usage = uncompressedUsage({
      provider: 'openai',
      model: 'm',
      calls: [{ input: 0, cacheWrite: 0, cacheRead: 0, output: 0 }],
      savedFresh: 700,
      savedRepeat: 300,
      injectedTokens: 200,
      expands: 0,
    });
    expect(usage).toEqual({ input: 1000, cacheWrite: 0, cacheRead: 0, output: 0 });
  });
});
