import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, startTestProxy } from './fixtures.js';

const LOG = buildLog(300, 'ci');

describe('per-tool exclusions', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, { config: { proxy: { excludeTools: ['read_file'] } } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('leaves the results of excluded tools whole and compresses the others', async () => {
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'fix it' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 't_read', name: 'read_file', input: { path: 'ci.log' } },
              { type: 'tool_use', id: 't_bash', name: 'bash', input: { cmd: 'make' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't_read', content: LOG },
              { type: 'tool_result', tool_use_id: 't_bash', content: [{ type: 'text', text: LOG }] },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const [read, bash] = upstream.received[0]!.json.messages[2].content;
    expect(read.content).toBe(LOG);
    expect(bash.content[0].text.length).toBeLessThan(LOG.length / 3);
  });
});
