import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_TOOLS_ADDED, offerDistilTools } from '../anthropic/distil-round.js';
import { readMessagesRequest } from '../anthropic/messages-body.js';
import { messagesContext } from '../anthropic/messages-context.js';
import type { RequestContext } from '../context/context-block.js';
import type { DialectTools } from '../expand/distil-tools.js';
import { readChatRequest } from '../openai/chat-body.js';
import { chatContext } from '../openai/chat-context.js';
import { CHAT_TOOLS_ADDED, offerChatTools } from '../openai/chat-distil.js';
import { readResponsesRequest } from '../openai/responses-body.js';
import { responsesContext } from '../openai/responses-context.js';
import { offerResponsesTools, RESPONSES_TOOLS_ADDED } from '../openai/responses-distil.js';
import { encodeBody, type StringEdit } from './body-edits.js';
import { PathPatterns, scanJson } from './json-scan.js';
import { LiteralCache } from './literal-cache.js';

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('a', '\n', '"', '\\', 'é', '/', '\u001b'),
    minLength: 200,
    maxLength: 400,
  }),
);
const textParts = (type: string) => fc.array(fc.record({ type: fc.constant(type), text }), { maxLength: 3 });
const tools = fc.array(fc.record({ type: fc.constant('function'), name: fc.constantFrom('bash', 'read') }), {
  maxLength: 2,
});

/** A dialect: how its bodies look, where its tool texts are, and how the route reads and changes them. */
interface Dialect {
  readonly name: string;
  readonly body: fc.Arbitrary<Record<string, unknown>>;
  readonly patterns: PathPatterns;
  read(json: unknown): object | null;
  context(request: never): RequestContext;
  offer(request: never): boolean;
  readonly tools: DialectTools;
}

const DIALECTS: readonly Dialect[] = [
  {
    name: 'Anthropic Messages',
    body: fc.record(
      {
        model: fc.constant('claude-sonnet-4-6'),
        max_tokens: fc.constant(64),
        messages: fc.array(
          fc.record({
            role: fc.constantFrom('user', 'assistant'),
            content: fc.oneof(
              text,
              fc.array(
                fc.oneof(
                  fc.record({
                    type: fc.constant('tool_result'),
                    tool_use_id: fc.constantFrom('t1', 't2'),
                    content: fc.oneof(text, textParts('text')),
                  }),
                  fc.record({ type: fc.constant('text'), text }),
                  fc.record({
                    type: fc.constant('tool_use'),
                    id: fc.constant('t1'),
                    name: fc.constant('bash'),
                  }),
                ),
                { maxLength: 3 },
              ),
            ),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        tools,
      },
      { requiredKeys: ['model', 'max_tokens', 'messages'] },
    ),
    patterns: new PathPatterns([
      ['messages', '*', 'content', '*', 'content'],
      ['messages', '*', 'content', '*', 'content', '*', 'text'],
      ['tools'],
    ]),
    read: readMessagesRequest,
    context: (request) => messagesContext(request, new Set()),
    offer: offerDistilTools,
    tools: ANTHROPIC_TOOLS_ADDED,
  },
  {
    name: 'Chat Completions',
    body: fc.record(
      {
        tools,
        model: fc.constant('gpt-5'),
        messages: fc.array(
          fc.record({
            role: fc.constantFrom('user', 'tool', 'system'),
            tool_call_id: fc.constant('c1'),
            content: fc.oneof(text, textParts('text')),
          }),
          { minLength: 1, maxLength: 5 },
        ),
      },
      { requiredKeys: ['model', 'messages'] },
    ),
    patterns: new PathPatterns([
      ['messages', '*', 'content'],
      ['messages', '*', 'content', '*', 'text'],
      ['tools'],
    ]),
    read: readChatRequest,
    context: (request) => chatContext(request, new Set()),
    offer: offerChatTools,
    tools: CHAT_TOOLS_ADDED,
  },
  {
    name: 'Responses',
    body: fc.record(
      {
        model: fc.constant('gpt-5'),
        input: fc.array(
          fc.oneof(
            fc.record({
              type: fc.constant('function_call_output'),
              call_id: fc.constant('c1'),
              output: fc.oneof(text, textParts('input_text')),
            }),
            fc.record({ type: fc.constant('message'), role: fc.constant('user'), content: text }),
          ),
          { maxLength: 5 },
        ),
        tools,
      },
      { requiredKeys: ['model'] },
    ),
    patterns: new PathPatterns([['input', '*', 'output'], ['input', '*', 'output', '*', 'text'], ['tools']]),
    read: readResponsesRequest,
    context: (request) => responsesContext(request, new Set()),
    offer: offerResponsesTools,
    tools: RESPONSES_TOOLS_ADDED,
  },
];

describe.each(DIALECTS)('encodeBody ($name)', (dialect) => {
  it('sends the bytes re-serialising would send, for compact and pretty-printed bodies alike', () => {
    const literals = new LiteralCache(4096);
    let spliced = 0;
    fc.assert(
      fc.property(
        dialect.body,
        fc.array(fc.option(text, { nil: null }), { maxLength: 12 }),
        fc.boolean(),
        fc.boolean(),
        (body, replacements, offer, pretty) => {
          const raw = Buffer.from(pretty ? JSON.stringify(body, null, 1) : JSON.stringify(body));
          const scanned = scanJson(raw, dialect.patterns, literals);
          const viaScan = dialect.read(scanned!.value)!;
          const viaParse = dialect.read(JSON.parse(raw.toString('utf8')))!;
          const strings: StringEdit[] = [];
          for (const request of [viaScan, viaParse]) {
            dialect.context(request as never).toolTexts.forEach((toolText, i) => {
              const next = replacements[i] ?? null;
              if (next === null || next === toolText.text) return;
              toolText.write!(next);
              if (request === viaScan) strings.push({ path: toolText.path, text: next });
            });
          }
          const offered = offer && dialect.offer(viaScan as never) && dialect.offer(viaParse as never);
          const changes = {
            strings,
            ...(offered ? { append: { key: 'tools', items: dialect.tools.json } } : {}),
            restructured: false,
          };
          const sent = encodeBody(raw, scanned, viaScan, changes, literals);
          if (Buffer.isBuffer(sent)) spliced++;
          expect(sent.toString()).toBe(JSON.stringify(viaParse));
        },
      ),
      { numRuns: 400 },
    );
    // Half the bodies are compact JSON.stringify output: most of those must have been spliced.
    expect(spliced).toBeGreaterThan(120);
  });
});

describe('encodeBody', () => {
  it('splices a canonical body, and re-serialises a restructured one or an edit it cannot place', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(300) }] },
      ],
    };
    const raw = Buffer.from(JSON.stringify(body));
    const scanned = scanJson(raw, DIALECTS[0]!.patterns)!;
    const edit = { path: ['messages', 0, 'content', 0, 'content'], text: 'short' };
    const out = encodeBody(raw, scanned, body, {
      strings: [edit],
      append: { key: 'tools', items: '{"name":"n"}' },
      restructured: false,
    });
    expect(Buffer.isBuffer(out)).toBe(true);
    expect(JSON.parse(out.toString())).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'short' }] }],
      tools: [{ name: 'n' }],
    });
    expect(typeof encodeBody(raw, scanned, body, { strings: [], restructured: true })).toBe('string');
    const unplaced = { strings: [{ path: undefined, text: 'a' }], restructured: false };
    expect(typeof encodeBody(raw, scanned, body, unplaced)).toBe('string');
  });
});
