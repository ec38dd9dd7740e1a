import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';
import { startTestProxy } from './fixtures.js';

const TOKEN = 'a-long-admin-token-0123456789';

describe('binding and the admin token', () => {
  it('refuses to listen beyond loopback without an admin token', async () => {
    await expect(
      startProxy({
        host: '0.0.0.0',
        port: 0,
        learn: false, // nothing learned from or into the real Distil home
        store: new MemoryRestoreStore(),
        keepModel: new SalienceKeepModel(),
        log: () => {},
      }),
    ).rejects.toThrow(/admin token/);
  });

  it('guards every non-provider endpoint with the admin token once one is set', async () => {
    const proxy = await startProxy({
      host: '0.0.0.0',
      port: 0,
      learn: false, // nothing learned from or into the real Distil home
      config: { proxy: { adminToken: TOKEN } },
      store: new MemoryRestoreStore(),
      keepModel: new SalienceKeepModel(),
      log: () => {},
    });
    try {
      const base = `http://127.0.0.1:${proxy.port}`;
      expect((await fetch(`${base}/distil/savings`)).status).toBe(401);
      expect(
        (await fetch(`${base}/distil/savings`, { headers: { 'x-distil-admin-token': 'wrong' } })).status,
      ).toBe(401);
      const ok = await fetch(`${base}/distil/savings`, { headers: { 'x-distil-admin-token': TOKEN } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ requests: 0 });
    } finally {
      await proxy.close();
    }
  });
});

describe('pass-through and limits', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, { config: { proxy: { maxBodyBytes: 64 * 1024 } } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('passes other endpoints through untouched, without hop-by-hop headers', async () => {
    upstream.reset();
    const body = 'exactly these bytes \u00e9';
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${proxy.url}/v1/embeddings?x=1`,
        {
          method: 'POST',
          headers: {
            authorization: 'Bearer sk-pass',
            connection: 'keep-alive, x-hop',
            'x-hop': 'connection-scoped',
            'keep-alive': 'timeout=5',
            'proxy-authorization': 'Basic Zm9vOmJhcg==',
            'x-end-to-end': 'kept',
            'x-distil-session': 'mine',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    const seen = upstream.received[0]!;
    expect(seen.path).toBe('/v1/embeddings?x=1');
    expect(seen.body).toBe(body);
    expect(seen.headers['x-end-to-end']).toBe('kept');
    expect(seen.headers.authorization).toBe('Bearer sk-pass');
    for (const hop of ['x-hop', 'keep-alive', 'proxy-authorization', 'x-distil-session']) {
      expect(seen.headers[hop]).toBeUndefined();
    }
  });

  it('answers 413 in the provider’s error shape when a body is over the limit', async () => {
    const big = JSON.stringify({
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }],
    });
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: big,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    const openai = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: big });
    expect(openai.status).toBe(413);
    expect(await openai.json()).toMatchObject({ error: { code: 'request_too_large' } });
  });

  it('answers 502 when the upstream cannot be reached, never a fake success', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lonely = await startTestProxy(upstream, { anthropicUpstream: `http://127.0.0.1:${port}` });
    try {
      const response = await fetch(`${lonely.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk-secret-value' },
        body: JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(lonely.logs.join('\n')).not.toContain('sk-secret-value');
    } finally {
      await lonely.close();
    }
  });
});
