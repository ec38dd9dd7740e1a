import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { startTestProxy } from './fixtures.js';

/**
 * A corporate egress proxy on loopback: it tunnels CONNECT requests and relays absolute-form ones, and
 * records the targets it was asked for.
 */
async function startEgressProxy(): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const server: Server = createServer((req, res) => {
    targets.push(req.url ?? '');
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const tunnel = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      tunnel.write(head);
      tunnel.pipe(socket);
      socket.pipe(tunnel);
    });
    tunnel.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('upstream calls through an egress proxy (HTTP_PROXY / NO_PROXY)', () => {
  let upstream: FakeUpstream;
  let egress: Awaited<ReturnType<typeof startEgressProxy>>;
  const saved = { ...process.env };
  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    egress = await startEgressProxy();
  });
  afterEach(() => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  afterAll(async () => {
    await egress.close();
    await upstream.close();
  });

  const ask = async (proxyUrl: string): Promise<number> => {
    const response = await fetch(`${proxyUrl}/v1/models`, { headers: { 'x-api-key': 'k' } });
    await response.text();
    return response.status;
  };

  it('goes through the proxy HTTP_PROXY names, and straight to a host NO_PROXY lists', async () => {
    process.env['HTTP_PROXY'] = egress.url;
    process.env['NO_PROXY'] = '';
    const proxied = await startTestProxy(upstream);
    try {
      expect(await ask(proxied.url)).toBe(200);
    } finally {
      await proxied.close();
    }
    const host = new URL(upstream.url).host;
    expect(egress.targets.some((t) => t.includes(host))).toBe(true);

    const seen = egress.targets.length;
    process.env['NO_PROXY'] = '127.0.0.1';
    const direct = await startTestProxy(upstream);
    try {
      expect(await ask(direct.url)).toBe(200);
    } finally {
      await direct.close();
    }
    expect(egress.targets.length).toBe(seen);
  });
});
