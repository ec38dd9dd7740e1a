import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RewriteMemory } from '../src/context/last-rewrite.js';
import { FakeUpstream, type ReceivedRequest, type Reply } from './fake-upstream.js';
import { startTestProxy, type TestProxy } from './fixtures.js';

/**
 * A request that repeats its conversation's last one is read and rewritten only where it is new
 * (context/last-rewrite.ts). Whatever a conversation does — new tool results, turns with nothing to
 * compress, a cache breakpoint that moves, rewinds, a changed tail, the same body twice, a body that is
 * not compact JSON, an expand — a proxy that reads every request whole must send upstream the very same
 * bytes, call for call, and answer the client the same.
 */

function log(lines: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i % 29 === 7
        ? `ERROR job ${seed}: case_${i} failed`
        : `INFO job ${seed} step ${i}: module_${(i * seed) % 89} ok in ${i % 13} ms`,
    );
  return out.join('\n');
}

type Turn =
  | { readonly kind: 'tool'; readonly id: string; readonly text: string }
  | { readonly kind: 'text'; readonly ask: string; readonly answer: string };

const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      lines: fc.integer({ min: 3, max: 120 }),
      seed: fc.integer({ min: 0, max: 50 }),
      resendOf: fc.option(fc.nat(), { freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('text' as const), word: fc.string({ maxLength: 12 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), to: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('tail' as const), maxTokens: fc.integer({ min: 1, max: 999 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'repeat' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pretty' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expand' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'meta' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'system' as const }) },
);

const AGENT_TOOLS = [{ name: 'bash', description: 'Runs a command.', input_schema: { type: 'object' } }];
/** The system prompt, in its `version` (a client may change it mid-conversation: a new root, a new session). */
function systemOf(version: string): Record<string, unknown>[] {
  return [{ type: 'text', text: `You are a coding agent${version}.`, cache_control: { type: 'ephemeral' } }];
}

type Dialect = 'messages' | 'responses';

/** Settings a client may rewrite every turn, its members' order included (Codex's `client_metadata`). */
function metadata(flipped: boolean): Record<string, string> {
  return flipped ? { turn: 'b', thread: 'a' } : { thread: 'a', turn: 'b' };
}

/**
 * The body of a conversation: Messages (the last message marked as a cache breakpoint when `marked`) or
 * Responses, its history before or after the other members.
 */
function body(
  dialect: Dialect,
  task: string,
  system: string,
  turns: readonly Turn[],
  layout: 'history-first' | 'history-last',
  maxTokens: number,
  marked: boolean,
  flipped: boolean,
): Record<string, unknown> {
  if (dialect === 'responses') {
    const input: Record<string, unknown>[] = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: task }] },
    ];
    for (const turn of turns) {
      if (turn.kind === 'tool') {
        input.push({ type: 'function_call', call_id: turn.id, name: 'bash', arguments: '{"cmd":"run"}' });
        input.push({ type: 'function_call_output', call_id: turn.id, output: turn.text });
      } else {
        input.push({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: turn.answer }],
        });
        input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.ask }] });
      }
    }
    const tools = [{ type: 'function', name: 'bash', parameters: { type: 'object' } }];
    const settings = {
      instructions: `You are a coding agent${system}.`,
      max_output_tokens: maxTokens,
      client_metadata: metadata(flipped),
    };
    return layout === 'history-first'
      ? { model: 'gpt-5.4', input, tools, ...settings }
      : { model: 'gpt-5.4', ...settings, tools, input };
  }
  const messages: { role: string; content: Record<string, unknown>[] }[] = [
    { role: 'user', content: [{ type: 'text', text: task }] },
  ];
  for (const turn of turns) {
    if (turn.kind === 'tool') {
      messages.push({
        role: 'assistant',
        content: [{ type: 'tool_use', id: turn.id, name: 'bash', input: { cmd: 'run' } }],
      });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: turn.id, content: turn.text }],
      });
    } else {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.answer }] });
      messages.push({ role: 'user', content: [{ type: 'text', text: turn.ask }] });
    }
  }
  if (marked) {
    const last = messages.at(-1)!.content;
    last[last.length - 1] = { ...last.at(-1)!, cache_control: { type: 'ephemeral' } };
  }
  const settings = { max_tokens: maxTokens, metadata: metadata(flipped) };
  return layout === 'history-first'
    ? { model: 'claude-sonnet-4-6', messages, system: systemOf(system), tools: AGENT_TOOLS, ...settings }
    : { model: 'claude-sonnet-4-6', ...settings, system: systemOf(system), tools: AGENT_TOOLS, messages };
}

/** The model's reply: an expand of the first stub the request shows when asked to, else a short text. */
function reply(dialect: Dialect, expand: boolean): (request: ReceivedRequest) => Reply {
  return (request) => {
    const handle = expand ? /handle=(dh_[0-9a-f]+)/.exec(request.body)?.[1] : undefined;
    if (dialect === 'responses')
      return {
        kind: 'responses',
        output: handle
          ? [
              {
                type: 'function_call',
                call_id: 'call_x',
                name: 'distil_expand',
                arguments: JSON.stringify({ handle }),
              },
            ]
          : [{ type: 'message', text: 'ok' }],
      };
    return handle
      ? {
          kind: 'anthropic',
          content: [{ type: 'tool_use', id: 'toolu_x', name: 'distil_expand', input: { handle } }],
        }
      : { kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] };
  };
}

function withoutIds(answer: string): string {
  return answer.replace(/"(id|response_id)":"[a-z]+_[0-9a-z_]+"/g, '"$1":"_"');
}

describe('a request read through its conversation’s last rewrite', () => {
  const memory = new RewriteMemory();
  let upstreams: FakeUpstream[];
  let proxies: TestProxy[];

  beforeAll(async () => {
    upstreams = [await new FakeUpstream().start(), await new FakeUpstream().start()];
    // the expand flywheel off: the expands of one test would teach both proxies to send such logs whole
    proxies = [
      await startTestProxy(upstreams[0]!, { rewriteMemory: memory, learn: false }),
      await startTestProxy(upstreams[1]!, { rewriteMemory: new RewriteMemory(0), learn: false }),
    ];
  });
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const upstream of upstreams) await upstream.close();
  });

  it.each(['messages', 'responses'] as const)(
    'sends the bytes a proxy reading it whole sends, call for call (%s)',
    async (dialect) => {
      const before = memory.readThrough;
      let conversation = 0;
      let folded = 0;
      let expands = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { minLength: 2, maxLength: 8 }),
          fc.constantFrom('history-first' as const, 'history-last' as const),
          fc.boolean(),
          async (steps, layout, marked) => {
            // sessions found by their root (system prompt and first message), as for a client naming none
            const task = `fix the jobs (${conversation++})`;
            let system = '';
            let turns: Turn[] = [];
            const tools: Turn[] = [];
            let maxTokens = 64;
            let flipped = false;
            let last: string | null = null;
            // every conversation ends on two long new logs (the first lifts the context over the cache minimum,
            // so it goes out whole) and an expand of the second one's fold
            const ending = [
              { kind: 'tool', lines: 300, seed: 3, resendOf: null },
              { kind: 'tool', lines: 300, seed: 4, resendOf: null },
              { kind: 'expand' },
            ] as const;
            for (const s of [...steps, ...ending]) {
              let pretty = false;
              if (s.kind === 'rewind') turns = turns.slice(0, turns.length === 0 ? 0 : s.to % turns.length);
              else if (s.kind === 'tail') maxTokens = s.maxTokens;
              else if (s.kind === 'meta' || s.kind === 'expand') flipped = !flipped;
              else if (s.kind === 'system') system += '!';
              else if (s.kind === 'pretty') pretty = true;
              else if (s.kind === 'text')
                turns.push({ kind: 'text', ask: `and ${s.word}?`, answer: `done: ${s.word}` });
              else if (s.kind === 'tool') {
                const again =
                  s.resendOf === null || tools.length === 0 ? undefined : tools[s.resendOf % tools.length];
                const text = again?.kind === 'tool' ? again.text : log(s.lines, s.seed);
                const turn: Turn = { kind: 'tool', id: `toolu_${tools.length}`, text };
                tools.push(turn);
                turns.push(turn);
              }
              const value = body(dialect, task, system, turns, layout, maxTokens, marked, flipped);
              const sent: string =
                s.kind === 'repeat' && last !== null
                  ? last
                  : JSON.stringify(value, null, pretty ? 1 : undefined);
              last = sent;
              // each step's calls alone: a reply scripted for a call that never came is not left over
              for (const upstream of upstreams) upstream.reset();
              const answers: string[] = [];
              for (const [i, proxy] of proxies.entries()) {
                upstreams[i]!.script(
                  reply(dialect, s.kind === 'expand'),
                  reply(dialect, false),
                  reply(dialect, false),
                );
                const response = await fetch(`${proxy.url}/v1/${dialect}`, {
                  method: 'POST',
                  headers: {
                    'content-type': 'application/json',
                    'x-api-key': 'k',
                  },
                  body: sent,
                });
                expect(response.status).toBe(200);
                answers.push(await response.text());
              }
              expect(upstreams[0]!.received.map((r) => r.body)).toEqual(
                upstreams[1]!.received.map((r) => r.body),
              );
              // the fake upstreams number their replies, and a failed run leaves them apart
              expect(withoutIds(answers[0]!)).toBe(withoutIds(answers[1]!));
              // the step's first call carries the whole history (a Responses continuation only the new items)
              if (upstreams[0]!.received[0]!.body.includes('handle=dh_')) folded++;
              // an expand the model asked for: the proxy answered it and called the model again
              if (upstreams[0]!.received.length > 1) expands++;
            }
          },
        ),
        { numRuns: 20 },
      );
      // The property is only worth something if requests were actually read through a last rewrite.
      expect(memory.readThrough - before).toBeGreaterThan(30);
      expect(folded).toBeGreaterThan(40);
      expect(expands).toBeGreaterThan(10);
    },
    60_000,
  );

  it('reads real agents’ consecutive turns through, sending what a proxy reading them whole sends', async () => {
    // four consecutive requests of one Claude Code session and of one Codex session, as the CLIs sent
    // them (the agents bench's fixtures): Claude Code moves its cache breakpoint to the last message each
    // turn, Codex rewrites its `client_metadata` after the history each turn
    const before = memory.readThrough;
    for (const [agent, dialect] of [
      ['claude-code', 'messages'],
      ['codex', 'responses'],
    ] as const) {
      for (let turn = 1; turn <= 4; turn++) {
        const url = new URL(`../../../agents/fixtures/${agent}-${turn}.json`, import.meta.url);
        const fixture = JSON.parse(readFileSync(url, 'utf8')) as { body: Record<string, unknown> };
        const sent = JSON.stringify({ ...fixture.body, stream: false });
        for (const upstream of upstreams) upstream.reset();
        for (const [i, proxy] of proxies.entries()) {
          upstreams[i]!.script(reply(dialect, false));
          const response = await fetch(`${proxy.url}/v1/${dialect}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'k', authorization: 'Bearer k' },
            body: sent,
          });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }
        expect(upstreams[0]!.received.map((r) => r.body)).toEqual(upstreams[1]!.received.map((r) => r.body));
      }
    }
    expect(memory.readThrough - before).toBe(6);
  });
});
