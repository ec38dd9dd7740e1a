/**
 * `pnpm bench:quality-proxy [LIMIT_PER_SET] [--show-lost]` — the quality benchmark's labelled logs sent
 * the way a real agent sends them, through the proxy, instead of handed to `compressBlock`.
 *
 * Each log becomes the newest tool result of a request built from a real CLI's captured body
 * (apps/proxy/test/fixtures/wire): Claude Code 2.1.199's system prompt, tool list and reminders on the
 * Messages API, Codex 0.171.0's instructions and tools on the Responses API with its `exec_command`
 * envelope. The user's task is the case's own (the bundled set's label file), or "find why this CI job
 * failed". The request goes through `startProxy` (default config and keep model, in-memory store) to a
 * local upstream that records what arrives. Printed per set and client: labelled lines visible in the
 * tool result as forwarded (the measure of bench:quality and ../shared/eval/quality.py), the tool
 * result's tokens saved, the same log's saving from `compressBlock` in the same run (what
 * `distil compress` gives), and the whole request's saving, which counts every token Distil adds (its
 * expand tool definitions, stubs, the lossless trailer). Nothing here calls the expand tool; an expand's
 * round trip is priced by `distil savings`, not here. Codex truncates tool output to 10k tokens unless
 * its limit is raised; the logs are sent whole, as with a raised limit.
 */
import { basename } from 'node:path';
import { loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, countTokens, detectKind, MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import { formatTable } from '../apps/cli/src/table.js';
import { requireCorpus } from './corpus-path.js';
import { type Case, qualityCases, readText, shownPath, visibleCount } from './quality-cases.js';
import {
  wireFixture as fixture,
  type Json,
  MESSAGES_REPLY,
  RESPONSES_REPLY,
  startRecordingUpstream,
} from './wire-fixtures.js';

const corpus = requireCorpus();
const showLost = process.argv.includes('--show-lost');
const limit = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? Number.POSITIVE_INFINITY);
const DEFAULT_TASK = 'The CI job failed. Read its log and find why, then fix the cause.';

/** How one client wraps a log as its newest tool result, and where to find it in what was forwarded. */
interface Client {
  readonly label: string;
  readonly route: string;
  readonly headers: Record<string, string>;
  readonly request: (task: string, file: string, log: string) => Json;
  readonly toolResult: (body: Json) => string;
  readonly reply: unknown;
}

const CALL_ID = 'bench_quality_call';

const claudeFixture = fixture('claude-code-2.1.199-messages.json');
const CLAUDE_CODE: Client = {
  label: 'Claude Code',
  route: '/v1/messages?beta=true',
  headers: { 'x-api-key': 'sk-ant-bench', 'anthropic-version': '2023-06-01' },
  request: (task, file, log) => {
    const body = structuredClone(claudeFixture);
    const first = body.messages[0];
    // the CLI's reminders stay; the user's words are this case's task
    first.content = [...first.content.slice(0, -1), { type: 'text', text: task }];
    body.messages = [
      first,
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: CALL_ID,
            name: 'Bash',
            input: { command: `cat ${file}`, description: 'Show the log' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: CALL_ID, content: log, cache_control: { type: 'ephemeral' } },
        ],
      },
    ];
    body.stream = false;
    return body;
  },
  toolResult: (body) => {
    for (const message of body.messages)
      for (const part of Array.isArray(message.content) ? message.content : [])
        if (part.type === 'tool_result' && part.tool_use_id === CALL_ID)
          return typeof part.content === 'string'
            ? part.content
            : part.content.map((p: Json) => p.text ?? '').join('\n');
    throw new Error('the tool result is missing from the forwarded request');
  },
  reply: MESSAGES_REPLY,
};

const codexFixture = fixture('codex-0.171.0-responses.json');
const CODEX: Client = {
  label: 'Codex',
  route: '/v1/responses',
  headers: { authorization: 'Bearer sk-bench' },
  request: (task, file, log) => {
    const body = structuredClone(codexFixture);
    const firstCall = body.input.findIndex((item: Json) => item.type === 'function_call');
    const context = body.input.slice(0, firstCall);
    const lastUser = context.findLastIndex((item: Json) => item.role === 'user');
    context[lastUser] = { ...context[lastUser], content: [{ type: 'input_text', text: task }] };
    body.input = [
      ...context,
      {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: `cat ${file}` }),
        call_id: CALL_ID,
      },
      {
        type: 'function_call_output',
        call_id: CALL_ID,
        output: `Chunk ID: 3f9a1c\nWall time: 0.0510 seconds\nProcess exited with code 0\nOriginal token count: ${countTokens(log)}\nOutput:\n${log}`,
      },
    ];
    body.stream = false;
    return body;
  },
  toolResult: (body) => {
    const item = body.input.find((i: Json) => i.type === 'function_call_output' && i.call_id === CALL_ID);
    if (!item) throw new Error('the tool result is missing from the forwarded request');
    return String(item.output);
  },
  reply: RESPONSES_REPLY,
};

const upstream = await startRecordingUpstream();
const upstreamUrl = upstream.url;
const config = DistilConfig.parse({});
const keepModel = await loadKeepModel(config.keepModel);
const proxy = await startProxy({
  port: 0,
  learn: false,
  anthropicUpstream: upstreamUrl,
  openaiUpstream: upstreamUrl,
  store: new MemoryRestoreStore(),
  keepModel,
  log: () => {},
});

interface Totals {
  files: number;
  seen: number;
  total: number;
  resultBefore: number;
  resultAfter: number;
  compressAfter: number;
  requestBefore: number;
  requestAfter: number;
  untouched: number;
}
const per = new Map<string, Totals>();
const lost: string[] = [];
const taken = new Map<string, number>();
const cases: Case[] = qualityCases(corpus).filter((c) => {
  const n = (taken.get(c.set) ?? 0) + 1;
  taken.set(c.set, n);
  return n <= limit;
});
const store = new MemoryRestoreStore();
let serial = 0;
for (const c of cases) {
  const log = readText(c.path);
  const compressed = await compressBlock(
    { id: 'b', role: 'tool', kind: detectKind(log), text: log, trusted: false },
    { keepModel, store, tiers: config.tiers },
  );
  for (const client of [CLAUDE_CODE, CODEX]) {
    upstream.reply = client.reply;
    const direct = client.request(c.task ?? DEFAULT_TASK, basename(c.path), log);
    const bytes = JSON.stringify(direct);
    const response = await fetch(`${proxy.url}${client.route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-distil-session': `q${serial++}`, ...client.headers },
      body: bytes,
    });
    await response.arrayBuffer();
    const received = upstream.received.at(-1)!;
    if (!response.ok) throw new Error(`${client.label} ${c.path}: HTTP ${response.status}`);
    const forwarded = client.toolResult(JSON.parse(received));
    const { seen, total, missing } = visibleCount(forwarded, c.wanted);
    const key = `${c.set}\u0000${client.label}`;
    const t = per.get(key) ?? {
      files: 0,
      seen: 0,
      total: 0,
      resultBefore: 0,
      resultAfter: 0,
      compressAfter: 0,
      requestBefore: 0,
      requestAfter: 0,
      untouched: 0,
    };
    t.files++;
    t.seen += seen;
    t.total += total;
    t.resultBefore += countTokens(client.toolResult(direct));
    t.resultAfter += countTokens(forwarded);
    t.compressAfter +=
      countTokens(compressed.text) + (countTokens(client.toolResult(direct)) - countTokens(log));
    t.requestBefore += countTokens(bytes);
    t.requestAfter += countTokens(received);
    if (received === bytes) t.untouched++;
    per.set(key, t);
    if (seen < total) {
      lost.push(`${client.label} ${c.set} ${shownPath(c.path)}: ${total - seen}/${total} not visible`);
      if (showLost) for (const w of missing.slice(0, 4)) lost.push(`    ${JSON.stringify(w.slice(0, 160))}`);
    }
  }
}
await proxy.close();
await upstream.close();

const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
const rows = [...per].map(([key, t]) => {
  const [set, client] = key.split('\u0000');
  return [
    set!,
    client!,
    t.files,
    pct(t.seen, t.total),
    pct(t.resultBefore - t.resultAfter, t.resultBefore),
    pct(t.resultBefore - t.compressAfter, t.resultBefore),
    pct(t.requestBefore - t.requestAfter, t.requestBefore),
    t.untouched,
  ];
});
process.stdout.write(`keep model: ${keepModel.id}; corpus: ${corpus}\n\n`);
process.stdout.write(
  formatTable(
    [
      'set',
      'client',
      'files',
      'visible',
      'tool result saved (proxy)',
      'same log, distil compress',
      'whole request saved',
      'forwarded untouched',
    ],
    rows,
  ),
);
for (const l of lost) process.stdout.write(`LOST ${l}\n`);
