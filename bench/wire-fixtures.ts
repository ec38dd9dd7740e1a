/**
 * What the wire benches share: the request bodies the real agent CLIs sent (apps/proxy/test/fixtures/wire),
 * the smallest valid reply of each API, and a local upstream that records every body it is sent and
 * answers with the reply it is told to.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes, read by path
export type Json = any;

/** A captured CLI request body, parsed. */
export const wireFixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../apps/proxy/test/fixtures/wire/${name}`, import.meta.url), 'utf8'));

/** A one-word Anthropic Messages reply (non-streaming). */
export const MESSAGES_REPLY = {
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-8',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: {
    input_tokens: 1000,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  },
};

/** A one-word OpenAI Responses reply (non-streaming). */
export const RESPONSES_REPLY = {
  id: 'resp_bench',
  object: 'response',
  status: 'completed',
  model: 'gpt-5.5',
  output: [
    { id: 'msg_b', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
  ],
  usage: {
    input_tokens: 1000,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    total_tokens: 1001,
  },
};

/** A running recording upstream: `received` holds every body in order; `reply` is what it answers. */
export interface RecordingUpstream {
  readonly url: string;
  readonly received: string[];
  reply: unknown;
  close(): Promise<void>;
}

/** Starts a recording upstream on 127.0.0.1 (see RecordingUpstream). */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(upstream.reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const upstream: RecordingUpstream = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    reply: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return upstream;
}
