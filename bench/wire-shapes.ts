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
import { SalienceKeepModel } from '@distil/codec';
import { countTokens, MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import {
  wireFixture as fixture,
  type Json,
  MESSAGES_REPLY,
  RESPONSES_REPLY,
  startRecordingUpstream,
} from './wire-fixtures.js';

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
  reply: MESSAGES_REPLY,
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
  reply: RESPONSES_REPLY,
};

const upstream = await startRecordingUpstream();
const { received } = upstream;
const upstreamUrl = upstream.url;
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
  upstream.reply = replay.reply;
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
await upstream.close();
