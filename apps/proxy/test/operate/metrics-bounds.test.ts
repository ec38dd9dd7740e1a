import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_HEADER } from '../../src/index.js';
import { FakeUpstream } from '../fake-upstream.js';
import { buildLog, startTestProxy } from '../fixtures.js';

const TOKEN = 'metrics-bounds-admin-token-0123456789';

/** The value of one sample line of a Prometheus exposition. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`no sample ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

/**
 * The "before" total is what the requests would have been billed uncompressed, so it holds every token
 * compression removed. A streamed Chat Completion without `stream_options.include_usage` bills nothing
 * the proxy can see: the removed tokens alone must then still fit in "before".
 */
describe('/metrics: removed tokens never exceed the before total', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let home: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'distil-metrics-bounds-'));
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, { home, config: { proxy: { adminToken: TOKEN } } });
    upstream.script({ kind: 'openai', content: 'The widget test failed.' });
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4.1',
      stream: true,
      messages: [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_run', type: 'function', function: { name: 'bash', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_run', content: buildLog(300, 'ci') },
      ],
    });
    for await (const _chunk of stream) {
      // drained: the request is recorded once its reply ends
    }
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('counts a request billed without usage with its removed tokens inside "before"', async () => {
    const text = await (
      await fetch(`${proxy.url}/metrics`, { headers: { [ADMIN_TOKEN_HEADER]: TOKEN } })
    ).text();
    const p = '{provider="openai"}';
    expect(sample(text, `distil_requests_total${p}`)).toBe(1);
    const removed = sample(text, `distil_removed_tokens_total${p}`);
    expect(removed).toBeGreaterThan(1000);
    expect(sample(text, `distil_input_tokens_before_total${p}`)).toBeGreaterThanOrEqual(removed);
  });
});
