import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../src/index.js';
import type { FakeUpstream } from './fake-upstream.js';
import { startTestProxy } from './fixtures.js';

// An upstream that goes silent — after its headers, or in the middle of a stream — for longer than
// `proxy.idleTimeoutMs` is given up on: the client's reply ends with the provider's error, and the
// upstream's socket is closed rather than held for as long as the stall lasts.

const IDLE_MS = 300;

/** An upstream that sends its headers (and for streams one event), then nothing; counts closed sockets. */
class StallingUpstream {
  server: Server | null = null;
  closed = 0;
  url = '';
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.on('close', () => this.closed++);
        const streamed = req.headers['x-test-stream'] === '1';
        res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
        if (streamed) {
          res.write(
            'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message",' +
              '"role":"assistant","model":"claude-sonnet-4-6","content":[],"stop_reason":null,' +
              '"usage":{"input_tokens":1,"output_tokens":1}}}\n\n',
          );
        } else res.write('{"id":');
        // …and nothing more.
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }
  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

let stalling: StallingUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  stalling = await new StallingUpstream().start();
  proxy = await startTestProxy(stalling as unknown as FakeUpstream, {
    config: { proxy: { idleTimeoutMs: IDLE_MS } },
  });
});
afterAll(async () => {
  await proxy?.close();
  await stalling?.close();
});

function post(stream: boolean): Promise<Response> {
  return fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'k',
      'anthropic-version': '2023-06-01',
      ...(stream ? { 'x-test-stream': '1' } : {}),
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      stream,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
}

describe('an upstream that stalls longer than the idle timeout', () => {
  it('ends a streamed reply with an Anthropic error event and closes the upstream socket', async () => {
    const started = performance.now();
    const before = stalling.closed;
    const response = await post(true);
    expect(response.status).toBe(200);
    const text = await response.text();
    const elapsed = performance.now() - started;
    expect(text).toContain('event: message_start');
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(elapsed).toBeLessThan(IDLE_MS + 2000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stalling.closed).toBe(before + 1);
  });

  it('answers a plain request with a provider-shaped 5xx once its body stalls', async () => {
    const before = stalling.closed;
    const response = await post(false);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(response.status).toBe(502);
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('api_error');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stalling.closed).toBe(before + 1);
  });
});
