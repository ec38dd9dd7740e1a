import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { startTestProxy } from './fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes, read by path
type Json = any;

/** One step of a Claude Code–shaped session: a tool output, maybe a system message, maybe a compaction. */
const step = fc.record({
  output: fc.oneof(
    fc.record({
      kind: fc.constant('log' as const),
      lines: fc.integer({ min: 5, max: 120 }),
      seed: fc.integer({ min: 1, max: 999 }),
    }),
    fc.record({ kind: fc.constant('resend' as const), of: fc.nat() }),
    fc.record({ kind: fc.constant('reread' as const), of: fc.nat(), line: fc.nat() }),
  ),
  systemAfter: fc.boolean(),
  compactBefore: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

function log(lines: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i % 41 === 7
        ? `ERROR job ${seed}: case_${i} failed`
        : `INFO job ${seed} step ${i}: module_${(i * seed) % 89} ok`,
    );
  return out.join('\n');
}

interface Turn {
  readonly id: string;
  readonly text: string;
  readonly systemAfter: boolean;
  readonly compactBefore: boolean;
}

/**
 * The request Claude Code sends for a history: the first user message with its injected reminder, the
 * mid-conversation system message after it, one tool call and result per turn (a system message after
 * some), compaction blocks where the provider compacted, and `cache_control` on the last part only.
 */
function claudeCodeBody(turns: readonly Turn[]): Json {
  const messages: Json[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nToday is a day like any other.\n</system-reminder>\n' },
        { type: 'text', text: 'the jobs keep failing, find out why' },
      ],
    },
    { role: 'system', content: 'Available agent types: general-purpose, Explore.' },
  ];
  for (const turn of turns) {
    const call = { type: 'tool_use', id: turn.id, name: 'Bash', input: { command: 'run-jobs' } };
    const summary = { type: 'compaction', content: `Summary of everything before ${turn.id}.` };
    messages.push({ role: 'assistant', content: turn.compactBefore ? [summary, call] : [call] });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: turn.id, content: turn.text }],
    });
    if (turn.systemAfter) messages.push({ role: 'system', content: `Reminder after ${turn.id}.` });
  }
  const last = messages.findLast((message) => message.role === 'user');
  last.content.at(-1).cache_control = { type: 'ephemeral' };
  return {
    model: 'claude-opus-4-8',
    max_tokens: 64,
    system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
    messages,
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object' } }],
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    stream: true,
  };
}

describe('prefix stability on the request shape Claude Code sends', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('after the latest compaction a tool result keeps its first bytes; before it, the client’s own; the rest never changes', async () => {
    let sessionNo = 0;
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 7 }), async (steps) => {
        upstream.reset();
        const session = `cc-prop-${sessionNo++}`;
        const turns: Turn[] = [];
        const firstSent = new Map<string, string>();
        for (const s of steps) {
          const earlier =
            turns.length > 0 ? turns[(s.output.kind === 'log' ? 0 : s.output.of) % turns.length] : undefined;
          let text: string;
          if (s.output.kind === 'log' || !earlier)
            text = log(
              s.output.kind === 'log' ? s.output.lines : 60,
              s.output.kind === 'log' ? s.output.seed : 3,
            );
          else if (s.output.kind === 'resend') text = earlier.text;
          else {
            const lines = earlier.text.split('\n');
            lines[s.output.line % lines.length] = 'WARN this line changed since the last read';
            text = lines.join('\n');
          }
          turns.push({
            id: `toolu_${turns.length}`,
            text,
            systemAfter: s.systemAfter,
            compactBefore: s.compactBefore,
          });

          const body = claudeCodeBody(turns);
          upstream.script({
            kind: 'anthropic',
            content: [{ type: 'tool_use', id: 'toolu_next', name: 'Bash', input: {} }],
          });
          const response = await fetch(`${proxy.url}/v1/messages?beta=true`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-distil-session': session },
            body: JSON.stringify(body),
          });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
          const received = upstream.received.at(-1)!;

          const compactedAt = turns.findLastIndex((turn) => turn.compactBefore);
          const expected = structuredClone(body);
          received.json.messages.forEach((message: Json, m: number) => {
            if (!Array.isArray(message.content)) return;
            message.content.forEach((part: Json, p: number) => {
              if (part.type !== 'tool_result') return;
              const index = turns.findIndex((turn) => turn.id === part.tool_use_id);
              const turn = turns[index]!;
              if (index < compactedAt) {
                // The provider does not send it to the model: it goes as the client wrote it.
                expect(part.content).toBe(turn.text);
                return;
              }
              if (part.content !== turn.text) rewritten++;
              const before = firstSent.get(turn.id);
              if (before === undefined) firstSent.set(turn.id, part.content);
              else expect(part.content).toBe(before);
              expected.messages[m].content[p].content = part.content;
            });
          });
          // Every other byte — system messages, compaction blocks, cache_control — is the client's.
          expect(received.json.tools.slice(0, body.tools.length)).toEqual(body.tools);
          expected.tools = received.json.tools;
          expect(received.body).toBe(JSON.stringify(expected));
        }
      }),
      { numRuns: 25 },
    );
    // The property is only worth something if blocks were rewritten along the way.
    expect(rewritten).toBeGreaterThan(10);
    // 25 sessions of up to 7 requests through a real proxy: ~2 s alone, over 5 s on a loaded 2-core machine.
  }, 30_000);
});
