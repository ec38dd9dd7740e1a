/**
 * `pnpm bench:shapes` — the request bodies the real agent CLIs send (apps/proxy/test/fixtures/wire:
 * Claude Code 2.1.199 on its default model, Codex 0.171.0), replayed turn by turn through the proxy.
 *
 * Each fixture is the last request of a captured session; the CLIs only ever append to the history, so
 * turn k is the body cut after its k-th tool result (Claude Code's `cache_control` moved to the last
 * part, as the CLI moves it). Every turn goes through one proxy session to a local upstream that records
 * what it got. Printed per turn: the new tool result's tokens (o200k) direct and through Distil, the
 * whole request's, whether the proxy had to forward the body untouched, and whether every earlier tool
 * result went upstream with the bytes it had the turn before (prefix stability). `stream` is set to
 * false so the upstream can answer plain JSON; nothing else in the bodies is changed.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SalienceKeepModel } from '@distil/codec';
import { countTokens, MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes, read by path
type Json = any;

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../apps/proxy/test/fixtures/wire/${name}`, import.meta.url), 'utf8'));

/** How one API's bodies are cut into turns and where their tool results sit. */
interface Replay {
  readonly label: string;
  readonly route: string;
  readonly headers: Record<string, string>;
  readonly body: Json;
  /** The body as the client sent it after its `turn`-th tool result (1-based). */
  readonly cut: (body: Json, turn: number) => Json;
  /** Tool-result texts of a body, in order. */
  readonly results: (body: Json) => string[];
  readonly reply: unknown;
}

const messageResults = (body: Json): string[] =>
  body.messages.flatMap((message: Json) =>
    Array.isArray(message.content)
      ? message.content
          .filter((part: Json) => part.type === 'tool_result')
          .map((part: Json) => String(part.content))
      : [],
  );

const CLAUDE_CODE: Replay = {
  label: 'Claude Code 2.1.199 (Messages, claude-opus-4-8)',
  route: '/v1/messages?beta=true',
  headers: { 'x-api-key': 'sk-ant-bench', 'anthropic-version': '2023-06-01' },
  body: fixture('claude-code-2.1.199-messages.json'),
  cut: (body, turn) => {
    const out = structuredClone(body);
    let seen = 0;
    const end = out.messages.findIndex((message: Json) => {
      if (Array.isArray(message.content) && message.content.some((part: Json) => part.type === 'tool_result'))
        seen++;
      return seen === turn;
    });
    out.messages = out.messages.slice(0, end + 1);
    for (const message of out.messages)
      if (Array.isArray(message.content)) for (const part of message.content) delete part.cache_control;
    out.messages.at(-1).content.at(-1).cache_control = { type: 'ephemeral' };
    out.stream = false;
    return out;
  },
  results: messageResults,
  reply: {
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
  },
};

const CODEX: Replay = {
  label: 'Codex 0.171.0 (Responses, store: false)',
  route: '/v1/responses',
  headers: { authorization: 'Bearer sk-bench' },
  body: fixture('codex-0.171.0-responses.json'),
  cut: (body, turn) => {
    const out = structuredClone(body);
    let seen = 0;
    const end = out.input.findIndex((item: Json) => item.type === 'function_call_output' && ++seen === turn);
    out.input = out.input.slice(0, end + 1);
    out.stream = false;
    return out;
  },
  results: (body) =>
    body.input
      .filter((item: Json) => item.type === 'function_call_output')
      .map((item: Json) => String(item.output)),
  reply: {
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
  },
};

const received: string[] = [];
let reply = '';
const upstream = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(reply);
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
const proxy = await startProxy({
  port: 0,
  // nothing here expands, and nothing may reach the real home (bench:proxy measures the flywheel's cost)
  learn: false,
  anthropicUpstream: upstreamUrl,
  openaiUpstream: upstreamUrl,
  store: new MemoryRestoreStore(),
  keepModel: new SalienceKeepModel(),
  log: () => {},
});

const pad = (value: string | number, width: number) => String(value).padStart(width);
for (const replay of [CLAUDE_CODE, CODEX]) {
  reply = JSON.stringify(replay.reply);
  const turns = replay.results(replay.body).length;
  const session = `bench-${replay.label}`;
  process.stdout.write(`${replay.label}: ${turns} turns\n`);
  process.stdout.write(
    '  turn | new tool result: direct  distil | whole request: direct  distil | untouched | prefix stable\n',
  );
  let previous: string[] = [];
  const total = {
    resultDirect: 0,
    resultDistil: 0,
    requestDirect: 0,
    requestDistil: 0,
    untouched: 0,
    unstable: 0,
  };
  for (let turn = 1; turn <= turns; turn++) {
    const body = replay.cut(replay.body, turn);
    const bytes = JSON.stringify(body);
    const response = await fetch(`${proxy.url}${replay.route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-distil-session': session, ...replay.headers },
      body: bytes,
    });
    await response.arrayBuffer();
    const sent = received.at(-1)!;
    const results = replay.results(JSON.parse(sent));
    const stable = previous.every((text, i) => results[i] === text);
    previous = results;
    const direct = countTokens(replay.results(body).at(-1)!);
    const distil = countTokens(results.at(-1)!);
    const untouched = sent === bytes;
    total.resultDirect += direct;
    total.resultDistil += distil;
    total.requestDirect += countTokens(bytes);
    total.requestDistil += countTokens(sent);
    if (untouched) total.untouched++;
    if (!stable) total.unstable++;
    process.stdout.write(
      `  ${pad(turn, 4)} | ${pad(direct, 22)} ${pad(distil, 7)} | ${pad(countTokens(bytes), 20)} ${pad(countTokens(sent), 7)} | ${pad(untouched ? 'yes' : 'no', 9)} | ${stable ? 'yes' : 'NO'}\n`,
    );
  }
  const fewer = (a: number, b: number) => `${((1 - b / a) * 100).toFixed(1)}% fewer`;
  process.stdout.write(
    `  tool results over the session: direct ${total.resultDirect}, through Distil ${total.resultDistil} (${fewer(total.resultDirect, total.resultDistil)})\n` +
      `  requests summed over the session: direct ${total.requestDirect}, through Distil ${total.requestDistil} (${fewer(total.requestDirect, total.requestDistil)})\n` +
      `  forwarded untouched: ${total.untouched} of ${turns}; turns whose earlier tool results changed bytes: ${total.unstable}\n`,
  );
}
await proxy.close();
await new Promise<void>((resolve) => upstream.close(() => resolve()));
