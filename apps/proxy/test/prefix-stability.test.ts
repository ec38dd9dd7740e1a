import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { startTestProxy } from './fixtures.js';

/** One generated tool output: a log of some length, a re-send or a near re-read of an earlier one. */
const toolOutput = fc.oneof(
  fc.record({
    kind: fc.constant('log' as const),
    lines: fc.integer({ min: 5, max: 90 }),
    seed: fc.integer({ min: 0, max: 999 }),
  }),
  fc.record({ kind: fc.constant('resend' as const), of: fc.nat() }),
  fc.record({ kind: fc.constant('reread' as const), of: fc.nat(), line: fc.nat() }),
);

/** A step of the conversation, or a rewind of the client's history to an earlier step. */
const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      output: toolOutput,
      note: fc.option(fc.integer({ min: 0, max: 90 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), to: fc.nat() }) },
);

function log(lines: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      i % 37 === 5
        ? `ERROR job ${seed}: case_${i} failed`
        : `INFO job ${seed} step ${i}: module_${(i * seed) % 97} ok`,
    );
  }
  return out.join('\n');
}

/** The agent's own tool list, as a coding agent sends it with every request. */
const AGENT_TOOLS = [{ name: 'bash', description: 'Runs a command.', input_schema: { type: 'object' } }];

interface Exchange {
  id: string;
  text: string;
  note: string | null;
}

// Sessions awake as usual, and every session put to sleep after each request: each request then wakes
// its session from the texts it resends (or forks a sleeping branch when it rewinds).
describe.each([
  { sessions: 'awake', awakeSessions: undefined },
  { sessions: 'asleep between requests', awakeSessions: 0 },
])('prefix stability through the proxy, sessions $sessions', ({ awakeSessions }) => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(
      upstream,
      awakeSessions === undefined ? {} : { config: { proxy: { awakeSessions } } },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('a tool result keeps the bytes it was first sent with, and the tool list never changes (rewinds included)', async () => {
    let conversationNo = 0;
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 7 }), async (steps) => {
        upstream.reset();
        const session = `prop-${conversationNo++}`;
        let history: Exchange[] = [];
        const produced: Exchange[] = [];
        let nextId = 0;
        const firstSent = new Map<string, string>();
        let firstTools: string | undefined;
        for (const s of steps) {
          if (s.kind === 'rewind') {
            history = history.slice(0, history.length === 0 ? 0 : s.to % history.length);
            continue;
          }
          const out = s.output;
          const earlier =
            produced.length > 0 ? produced[(out.kind === 'log' ? 0 : out.of) % produced.length]! : undefined;
          let text: string;
          if (out.kind === 'log' || !earlier)
            text = log(out.kind === 'log' ? out.lines : 40, out.kind === 'log' ? out.seed : 1);
          else if (out.kind === 'resend') text = earlier.text;
          else {
            const lines = earlier.text.split('\n');
            lines[out.line % lines.length] = 'WARN this line changed since the last read';
            text = lines.join('\n');
          }
          const exchange = {
            id: `toolu_${nextId++}`,
            text,
            note: s.note === null ? null : `look at module_${s.note}`,
          };
          produced.push(exchange);
          history.push(exchange);

          const messages: unknown[] = [{ role: 'user', content: 'fix the jobs' }];
          for (const h of history) {
            messages.push({
              role: 'assistant',
              content: [{ type: 'tool_use', id: h.id, name: 'bash', input: { cmd: 'run' } }],
            });
            const parts: unknown[] = [{ type: 'tool_result', tool_use_id: h.id, content: h.text }];
            if (h.note) parts.push({ type: 'text', text: h.note });
            messages.push({ role: 'user', content: parts });
          }
          upstream.script({
            kind: 'anthropic',
            content: [{ type: 'tool_use', id: `toolu_next${nextId}`, name: 'bash', input: {} }],
          });
          const response = await fetch(`${proxy.url}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-distil-session': session },
            body: JSON.stringify({
              model: 'claude-sonnet-4-6',
              max_tokens: 10,
              tools: AGENT_TOOLS,
              messages,
            }),
          });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
          const received = upstream.received.at(-1)!;
          // The bytes sent are JSON.stringify of what was sent: the same request gives the same bytes
          // whether the proxy spliced its edits into the client's body or re-serialised it.
          expect(received.body).toBe(JSON.stringify(received.json));
          // Tools open the cached prefix: the distil tools are there from the first request on, and the
          // list is byte-identical in every request, the one whose context first shows a fold included.
          const tools = JSON.stringify(received.json.tools);
          firstTools ??= tools;
          expect(tools).toBe(firstTools);
          expect((received.json.tools as { name: string }[]).map((t) => t.name)).toEqual([
            'bash',
            'distil_expand',
            'distil_search',
          ]);
          const sent = received.json.messages as { content: unknown }[];
          for (const message of sent) {
            if (!Array.isArray(message.content)) continue;
            for (const part of message.content as {
              type: string;
              tool_use_id?: string;
              content?: string;
            }[]) {
              if (part.type !== 'tool_result') continue;
              const original = produced.find((p) => p.id === part.tool_use_id)!.text;
              if (part.content !== original) rewritten++;
              const before = firstSent.get(part.tool_use_id!);
              if (before === undefined) firstSent.set(part.tool_use_id!, part.content!);
              else expect(part.content).toBe(before);
            }
          }
        }
      }),
      { numRuns: 25 },
    );
    // The property is only worth something if blocks were actually rewritten along the way.
    expect(rewritten).toBeGreaterThan(10);
  });
});
