import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake upstream received. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

/**
 * A local stand-in for the Anthropic Messages and OpenAI Chat Completions APIs, speaking their wire
 * formats. Its "model" is a rule: when any message mentions SECRET-42 it calls read_file on that path,
 * otherwise it answers in text. `failures` lists statuses to answer with before answering normally.
 */
export class FakeUpstream {
  readonly received: Received[] = [];
  readonly failures: { status: number; body: unknown; retryAfter?: string }[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        this.received.push({ path: req.url ?? '', headers: req.headers, body });
        const failure = this.failures.shift();
        if (failure) {
          res.writeHead(failure.status, {
            'content-type': 'application/json',
            ...(failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter }),
          });
          res.end(JSON.stringify(failure.body));
          return;
        }
        const mentions = JSON.stringify(body['messages']).includes('SECRET-42');
        if (req.url === '/v1/messages') return this.anthropic(req, body, mentions, res);
        if (req.url === '/v1/chat/completions') return this.openai(req, body, mentions, res);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private anthropic(
    req: IncomingMessage,
    body: Record<string, unknown>,
    mentions: boolean,
    res: import('node:http').ServerResponse,
  ): void {
    if (req.headers['x-api-key'] !== 'test-key' || req.headers['anthropic-version'] !== '2023-06-01') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: 'invalid x-api-key' },
        }),
      );
      return;
    }
    const content = mentions
      ? [
          { type: 'text', text: 'Reading the file.' },
          { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: '/etc/SECRET-42' } },
        ]
      : [{ type: 'text', text: 'Nothing left to do.' }];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: body['model'],
        content,
        stop_reason: mentions ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 8 },
      }),
    );
  }

  private openai(
    req: IncomingMessage,
    body: Record<string, unknown>,
    mentions: boolean,
    res: import('node:http').ServerResponse,
  ): void {
    if (req.headers['authorization'] !== 'Bearer test-key') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
      return;
    }
    const message = mentions
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"/etc/SECRET-42"}' },
            },
          ],
        }
      : { role: 'assistant', content: 'Nothing left to do.' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body['model'],
        choices: [{ index: 0, message, finish_reason: mentions ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
      }),
    );
  }
}
