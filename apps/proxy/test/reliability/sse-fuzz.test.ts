import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { anthropicEvents, openaiChunks } from '../provider-wire.js';
import { FAULT_HEADER, FaultUpstream } from './fault-upstream.js';

// Mangled upstream event streams (WHATWG HTML §9.2 event-stream format): other line endings, comments,
// unknown events, dropped events, a corrupt byte, a truncation, arbitrary chunk boundaries that split
// UTF-8 characters. The proxy must relay a complete stream event for event, and end an incomplete or
// failed one with an error event — never with a clean end the client would take for a success.

// FC_SEED=<n> replays a failing run; FC_RUNS=<n> searches longer than CI does.
if (process.env['FC_SEED']) fc.configureGlobal({ seed: Number(process.env['FC_SEED']) });
const RUNS = Number(process.env['FC_RUNS'] ?? 300);
/** Each property's time limit: 0.4 s a run, far above what a run takes on a loaded machine. */
const LIMIT_MS = 400 * RUNS;

const TEXT = 'Grün → 漢字 🙂, the fix is in parser.ts line 42.';

/** One event as a client reads it: its `event:` name and joined `data:` lines. */
interface Event {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * A reference parser of the whole stream, written from the spec (lines end at CRLF, LF or CR). A stream
 * cut between the CR and the LF of its last CRLF counts as cut: a relay reading chunks cannot tell that
 * CR from the first half of a CRLF, and it reports the cut rather than guess.
 */
function parseStream(whole: string): Event[] {
  const text = whole.endsWith('\n\r') ? whole.slice(0, -1) : whole;
  const events: Event[] = [];
  let name: string | undefined;
  let data: string[] = [];
  let fields = false;
  for (const line of text.split(/\r\n|\r|\n/).slice(0, -1)) {
    if (line === '') {
      if (fields) events.push({ event: name, data: data.join('\n') });
      name = undefined;
      data = [];
      fields = false;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    fields = true;
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return events;
}

function objectOf(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** How the upstream stream ends, read as the proxy's relay reads it. */
type Ending = { kind: 'complete'; at: number } | { kind: 'failed' };

/**
 * How an Anthropic stream ends. `malformed`: it reaches message_stop, but a block event on the way lacks
 * what the SDK itself needs (an index, a content_block, a delta): relaying it as it is or reporting it
 * as an error are both faithful — neither becomes a success the SDK would not have reported.
 */
function anthropicEnding(events: readonly Event[]): Ending | { kind: 'malformed'; at: number } {
  let malformed = false;
  for (const [i, e] of events.entries()) {
    const o = objectOf(e.data);
    const type = o?.type;
    if (type === 'error') return { kind: 'failed' };
    if (type === 'message_stop')
      return malformed ? { kind: 'malformed', at: i } : { kind: 'complete', at: i };
    if (type === 'content_block_start' || type === 'content_block_delta' || type === 'content_block_stop') {
      const field =
        type === 'content_block_start' ? o?.content_block : type === 'content_block_delta' ? o?.delta : {};
      if (typeof o?.index !== 'number' || typeof field !== 'object' || field === null) malformed = true;
    }
  }
  return { kind: 'failed' };
}

function chatEnding(events: readonly Event[]): Ending {
  for (const [i, e] of events.entries()) {
    if (e.data === '[DONE]') return { kind: 'complete', at: i };
    if (objectOf(e.data)?.error) return { kind: 'failed' };
  }
  return { kind: 'failed' };
}

const EXTRA = [
  ': keep-alive\n\n',
  'event: ping\ndata: {"type": "ping"}\n\n',
  'event: future_event\ndata: {"type":"future_event","x":1}\n\n',
  'data:\n\n',
  'id: 7\nretry: 1000\n\n',
];

/** Null three times in four: each destructive mutation hits a quarter of the streams. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** Mutations of a valid event list, then of its bytes, then how the bytes are chunked. */
function mangled(valid: readonly string[], errorEvent: string) {
  return fc
    .record({
      ending: fc.constantFrom('\n', '\r\n', '\r'),
      inserts: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...EXTRA, errorEvent)), { maxLength: 3 }),
      drop: sometimes(fc.nat()),
      corrupt: sometimes(fc.tuple(fc.nat(), fc.integer({ min: 0x20, max: 0x7e }))),
      cut: sometimes(fc.nat()),
      sizes: fc.array(fc.integer({ min: 1, max: 160 }), { minLength: 1, maxLength: 12 }),
    })
    .map(({ ending, inserts, drop, corrupt, cut, sizes }) => {
      const events = [...valid];
      for (const [at, extra] of inserts) events.splice(at % (events.length + 1), 0, extra);
      if (drop !== null) events.splice(drop % events.length, 1);
      let bytes = Buffer.from(events.join('').replace(/\n/g, ending), 'utf8');
      if (corrupt !== null) {
        bytes = Buffer.from(bytes);
        bytes[corrupt[0] % bytes.length] = corrupt[1];
      }
      if (cut !== null) bytes = bytes.subarray(0, cut % bytes.length);
      const chunks: Buffer[] = [];
      for (let at = 0, k = 0; at < bytes.length; k++) {
        const size = sizes[k % sizes.length]!;
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      return chunks;
    });
}

describe('mangled upstream event streams through the proxy', { timeout: 30_000 }, () => {
  let upstream: FaultUpstream;
  let proxy: RunningProxy;
  const agent = new Agent({ connections: 4 });
  let n = 0;

  beforeAll(async () => {
    upstream = await new FaultUpstream().start();
    proxy = await startProxy({
      port: 0,
      learn: false, // nothing learned from or into the real Distil home
      anthropicUpstream: upstream.url,
      openaiUpstream: upstream.url,
      store: new MemoryRestoreStore(),
      keepModel: new SalienceKeepModel(),
      log: () => {},
    });
  });
  afterAll(async () => {
    await agent.close();
    await proxy.close();
    await upstream.close();
  });

  /** Streams `chunks` from the upstream for one request through the proxy; the client's status and text. */
  async function relay(path: string, body: unknown, chunks: readonly Buffer[]) {
    const fault = `sse-${++n}`;
    upstream.define(fault, { kind: 'sse', chunks });
    const response = await request(`${proxy.url}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-sse', [FAULT_HEADER]: fault },
      body: JSON.stringify(body),
    });
    return { status: response.statusCode, text: await response.body.text() };
  }

  it(
    'Anthropic: relays complete streams event for event, ends broken ones with an error event',
    async () => {
      const model = 'claude-sonnet-4-5';
      const valid = anthropicEvents(
        {
          kind: 'anthropic',
          content: [
            { type: 'thinking', thinking: 'Look at the parser first.', signature: 'c2lnbmF0dXJl' },
            { type: 'text', text: TEXT },
            { type: 'tool_use', id: 'toolu_9', name: 'bash', input: { cmd: 'make test' } },
          ],
        },
        3,
        { json: { model } },
      );
      const error =
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
      const body = { model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'go' }] };
      await fc.assert(
        fc.asyncProperty(mangled(valid, error), async (chunks) => {
          const sent = parseStream(new TextDecoder().decode(Buffer.concat(chunks)));
          const { status, text } = await relay('/v1/messages', body, chunks);
          expect(status).toBe(200);
          const got = parseStream(text);
          const ending = anthropicEnding(sent);
          const types = got.map((e) => objectOf(e.data)?.type);
          if (ending.kind === 'malformed' && types.at(-1) === 'error') {
            expect(types).not.toContain('message_stop');
            return;
          }
          if (ending.kind === 'failed') {
            expect(types.at(-1)).toBe('error');
            expect(types).not.toContain('message_stop');
            return;
          }
          expect(types).not.toContain('error');
          expect(types.at(-1)).toBe('message_stop');
          // the message's events in order; everything else (pings, comments, unknown events) kept too
          const core = (events: readonly Event[]) =>
            events
              .map((e) => objectOf(e.data))
              .filter(
                (o) => typeof o?.type === 'string' && /^(message|content_block)_/.test(o.type as string),
              );
          const upTo = sent.slice(0, ending.at + 1);
          expect(core(got)).toEqual(core(upTo));
          const rest = (events: readonly Event[]) =>
            events
              .filter((e) => !/^(message|content_block)_/.test(String(objectOf(e.data)?.type)))
              .map((e) => `${e.event}|${e.data}`)
              .sort();
          expect(rest(got)).toEqual(rest(upTo));
        }),
        { numRuns: RUNS },
      );
    },
    LIMIT_MS,
  );

  it(
    'Chat Completions: relays complete streams chunk for chunk, ends broken ones with an error chunk',
    async () => {
      const model = 'gpt-4o';
      const valid = [
        ...openaiChunks(
          {
            kind: 'openai',
            content: TEXT,
            toolCalls: [{ id: 'call_9', name: 'bash', arguments: '{"cmd":"make"}' }],
          },
          3,
          { json: { model, stream_options: { include_usage: true } } },
        ),
        'data: [DONE]\n\n',
      ];
      const error =
        'data: {"error":{"message":"Overloaded","type":"server_error","param":null,"code":null}}\n\n';
      const body = {
        model,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'go' }],
      };
      await fc.assert(
        fc.asyncProperty(mangled(valid, error), async (chunks) => {
          const sent = parseStream(new TextDecoder().decode(Buffer.concat(chunks)));
          const { status, text } = await relay('/v1/chat/completions', body, chunks);
          expect(status).toBe(200);
          const got = parseStream(text);
          const ending = chatEnding(sent);
          if (ending.kind === 'failed') {
            expect(objectOf(got.at(-1)?.data ?? '')?.error).toBeDefined();
            expect(got.map((e) => e.data)).not.toContain('[DONE]');
            return;
          }
          expect(got.at(-1)?.data).toBe('[DONE]');
          expect(got.some((e) => objectOf(e.data)?.error !== undefined)).toBe(false);
          // every chunk with data, in order; the usage-only chunk is held to the end by design
          const chunksOf = (events: readonly Event[]) => {
            const data = events.map((e) => e.data).filter((d) => d.length > 0 && d !== '[DONE]');
            const usage = data.filter((d) => (objectOf(d)?.choices as unknown[] | undefined)?.length === 0);
            return [...data.filter((d) => !usage.includes(d)), ...usage];
          };
          expect(chunksOf(got)).toEqual(chunksOf(sent.slice(0, ending.at + 1)));
        }),
        { numRuns: RUNS },
      );
    },
    LIMIT_MS,
  );

  // Two relay behaviours the fuzzing above found, pinned: without a splice the client gets exactly the
  // upstream's events — no message_delta made up when the upstream sent none, and a block whose start
  // never came is relayed rather than dropped (with the other blocks' indices left alone).
  it('Anthropic: makes up no message_delta, and drops no block, when relaying a malformed stream as is', async () => {
    const model = 'claude-sonnet-4-6';
    const valid = anthropicEvents(
      {
        kind: 'anthropic',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      4,
      { json: { model } },
    );
    const body = { model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'go' }] };
    const typeOf = (e: Event) => objectOf(e.data)?.type;
    const noDelta = valid.filter((event) => !event.startsWith('event: message_delta'));
    const got = parseStream(
      (
        await relay(
          '/v1/messages',
          body,
          noDelta.map((e) => Buffer.from(e)),
        )
      ).text,
    );
    expect(got.map(typeOf)).not.toContain('message_delta');
    expect(got.map((e) => e.data)).toEqual(parseStream(noDelta.join('')).map((e) => e.data));
    const firstStart = valid.findIndex((event) => event.startsWith('event: content_block_start'));
    const orphaned = valid.toSpliced(firstStart, 1);
    const relayed = parseStream(
      (
        await relay(
          '/v1/messages',
          body,
          orphaned.map((e) => Buffer.from(e)),
        )
      ).text,
    );
    expect(relayed.map((e) => e.data)).toEqual(parseStream(orphaned.join('')).map((e) => e.data));
  });

  // Found by the fuzzing above: the usage chunk, held to the end of the stream, went out re-serialised
  // (`"completion_tokens": 0` became `"completion_tokens":0`); when nothing is summed into it, its bytes
  // are the upstream's.
  it("Chat Completions: relays the held usage chunk in the upstream's own bytes", async () => {
    const model = 'gpt-4o';
    const valid = [
      ...openaiChunks({ kind: 'openai', content: TEXT }, 3, {
        json: { model, stream_options: { include_usage: true } },
      }),
      'data: [DONE]\n\n',
    ];
    const spaced = valid.map((event) =>
      event.includes('"choices":[]') ? event.replace('"completion_tokens":', '"completion_tokens": ') : event,
    );
    expect(spaced).not.toEqual(valid);
    const body = { model, stream: true, stream_options: { include_usage: true }, messages: [] };
    const { text } = await relay(
      '/v1/chat/completions',
      { ...body, messages: [{ role: 'user', content: 'go' }] },
      spaced.map((e) => Buffer.from(e)),
    );
    const usage = parseStream(text).find((e) => e.data.includes('"choices":[]'));
    expect(usage?.data).toContain('"completion_tokens": ');
  });
});
