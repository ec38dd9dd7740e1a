import type { RestoreStore } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import { describe, expect, it } from 'vitest';
import type { ReceivedRequest, Reply } from './fake-upstream.js';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy, useTestProxy } from './fixtures.js';

// A handle resolves through distil_expand only for the caller the proxy issued it to: a stub copied into
// another caller's tool result (a page it read, a file it opened) must not pull the first caller's fold.

const LOG = buildLog(300, 'secret-build');

/** A conversation whose one tool result is `output`, sent with `key`. */
const body = (output: string) => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [
    { role: 'user', content: 'what failed?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_read', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_read', content: output }] },
  ],
});

/** The model asks for `handle`, then answers with what the expand gave it. */
function expandThenAnswer(
  handle: () => string,
): [(r: ReceivedRequest) => Reply, (r: ReceivedRequest) => Reply] {
  return [
    () => ({
      kind: 'anthropic',
      content: [{ type: 'tool_use', id: 'toolu_x', name: 'distil_expand', input: { handle: handle() } }],
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
    (request) => {
      const sent = JSON.parse(request.body) as {
        messages: { content: { type: string; content?: unknown }[] }[];
      };
      const result = sent.messages.at(-1)!.content.find((p) => p.type === 'tool_result');
      return {
        kind: 'anthropic',
        content: [{ type: 'text', text: JSON.stringify(result?.content ?? '') }],
        usage: { input_tokens: 10, output_tokens: 5 },
      };
    },
  ];
}

describe('handles are scoped to the caller they were issued to', () => {
  const env = useTestProxy();

  const send = async (key: string, output: string, via = env.proxy.url): Promise<string> => {
    const response = await fetch(`${via}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body(output)),
    });
    const reply = (await response.json()) as { content: { text?: string }[] };
    return reply.content.map((p) => p.text ?? '').join('');
  };

  /**
   * The owner's own request: its log is folded, the model expands the stub it sees, and the reply carries
   * what the expand gave back. Resolves to the handle and that reply.
   */
  const issueTo = async (key: string, log: string): Promise<{ handle: string; reply: string }> => {
    let handle = '';
    const [ask, answer] = expandThenAnswer(() => handle);
    env.upstream.script((request) => {
      handle = firstHandle(request.body);
      return ask(request);
    }, answer);
    const reply = await send(key, log);
    return { handle, reply };
  };
  /** A request whose tool result prints `handle`'s stub, and whose model asks to expand it. */
  const printStub = (key: string, handle: string, via?: string): Promise<string> => {
    env.upstream.script(...expandThenAnswer(() => handle));
    return send(key, `see << +40 lines, handle=${handle} >>`, via);
  };

  it('expands for the caller it was issued to, and not for another caller who prints its stub', async () => {
    const { handle: issued, reply: owner } = await issueTo('sk-tenant-a', LOG);
    expect(issued).toMatch(/^dh_/);
    expect(owner).toContain('secret-build step');

    // Then another key, whose tool result carries the first caller's stub verbatim.
    const intruder = await printStub('sk-tenant-b', issued);
    expect(intruder).not.toContain('secret-build step');
    expect(intruder).toMatch(/unknown|no such|not found/i);
  });

  it('expands for its own key on another replica sharing the store, and for no other key there', async () => {
    const { handle: issued } = await issueTo('sk-tenant-c', buildLog(300, 'replica-build'));
    const replica = await startTestProxy(env.upstream, { store: env.proxy.store });
    try {
      // On the replica the stub reaches the context as printed text, never compressed there.
      const own = await printStub('sk-tenant-c', issued, replica.url);
      expect(own).toContain('replica-build step');
      const other = await printStub('sk-tenant-d', issued, replica.url);
      expect(other).not.toContain('replica-build step');
    } finally {
      await replica.close();
    }
  });
});

describe('handle grants', () => {
  // A grant is a 64-byte record per handle; against a disk store each waits on fsyncs. The proxy writes
  // them while the request is upstream, and lets none of the reply out before they are written.
  it('are written while the model reads the request, and the reply waits for them', async () => {
    const upstream = await new FakeUpstream().start();
    const inner = new MemoryRestoreStore();
    let grantsWritten = -1;
    let pendingGrants = 0;
    const slowGrants: RestoreStore = {
      put: async (original) => {
        if (original.byteLength !== 64) return inner.put(original);
        pendingGrants += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const handle = await inner.put(original);
        if (--pendingGrants === 0) grantsWritten = performance.now();
        return handle;
      },
      get: (handle) => inner.get(handle),
      has: (handle) => inner.has(handle),
    };
    const proxy = await startTestProxy(upstream, { store: slowGrants as MemoryRestoreStore });
    try {
      let upstreamAt = -1;
      upstream.script(() => {
        upstreamAt = performance.now();
        return { kind: 'anthropic', content: [{ type: 'text', text: 'done' }] };
      });
      const response = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'sk-grants',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify(body(buildLog(300, 'grant-build'))),
      });
      const replyAt = performance.now();
      expect(await response.text()).toContain('done');
      expect(upstreamAt).toBeGreaterThan(0);
      expect(grantsWritten).toBeGreaterThan(0);
      // upstream first, then the grants, then the reply
      expect(upstreamAt).toBeLessThan(grantsWritten);
      expect(grantsWritten).toBeLessThanOrEqual(replyAt);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
