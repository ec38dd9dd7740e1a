import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import {
  CODEX_DEFAULT_MODEL,
  importCodexRollout,
  importFile,
  looksLikeCodexRollout,
  type RecordedSession,
} from '../src/index.js';

type Json = Record<string, unknown>;

const line = (type: string, payload: Json): Json => ({
  timestamp: '2025-11-13T01:48:11.461Z',
  type,
  payload,
});
const meta = (extra: Json = {}): Json =>
  line('session_meta', { id: 'rollout-1', cwd: '/repo', cli_version: '0.57.0', instructions: '', ...extra });
const context = (model: string): Json => line('turn_context', { model, cwd: '/repo', effort: 'medium' });
const item = (payload: Json): Json => line('response_item', payload);
const user = (text: string): Json =>
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const assistant = (text: string): Json =>
  item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const reasoning = (): Json =>
  item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAAA-opaque' });
const functionCall = (id: string, command: string): Json =>
  item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command }), call_id: id });
const functionOutput = (id: string, output: string): Json =>
  item({ type: 'function_call_output', call_id: id, output });
const customCall = (id: string, input: string): Json =>
  item({ type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input });
const customOutput = (id: string, output: string): Json =>
  item({ type: 'custom_tool_call_output', call_id: id, output });
const event = (payload: Json): Json => line('event_msg', payload);

/** Running totals of a session, grown by each bill, as Codex reports them beside the call's own. */
class Meter {
  private last: Json = {};
  private total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, total_tokens: 0 };

  /** A new bill: the call's usage and the totals after it. */
  bill(input: number, cached: number, output: number): Json {
    const last = { input_tokens: input, cached_input_tokens: cached, output_tokens: output };
    const sum = input + output;
    this.total = {
      input_tokens: this.total.input_tokens + input,
      cached_input_tokens: this.total.cached_input_tokens + cached,
      output_tokens: this.total.output_tokens + output,
      total_tokens: this.total.total_tokens + sum,
    };
    return this.repeat({ ...last, reasoning_output_tokens: 0, total_tokens: sum });
  }

  /** The same totals again, as Codex writes at the start of each turn. */
  repeat(last?: Json): Json {
    this.last = last ?? this.last;
    return event({
      type: 'token_count',
      info: {
        total_token_usage: { ...this.total },
        last_token_usage: this.last,
        model_context_window: 272000,
      },
      rate_limits: null,
    });
  }
}

const importOf = (records: readonly unknown[], skipped = 0): RecordedSession =>
  importCodexRollout(records, '/sessions/2025/11/13/rollout-x.jsonl', skipped);

describe('importCodexRollout', () => {
  it('splits a rollout into calls, each billed by the count Codex wrote before its reply', () => {
    const meter = new Meter();
    const records = [
      meta(),
      user('# AGENTS.md instructions for /repo'),
      user('<environment_context>…</environment_context>'),
      user('list the files'),
      event({ type: 'user_message', message: 'list the files', images: [] }),
      context('gpt-5-codex'),
      event({ type: 'token_count', info: null, rate_limits: null }),
      event({ type: 'agent_reasoning', text: 'Listing' }),
      meter.bill(3000, 2000, 100),
      reasoning(),
      functionCall('c1', 'ls'),
      functionOutput('c1', 'a.ts\nb.ts'),
      context('gpt-5-codex'),
      meter.repeat(),
      meter.bill(3200, 3000, 40),
      reasoning(),
      customCall('c2', '*** Begin Patch\n*** End Patch'),
      customOutput('c2', 'Success.'),
      context('gpt-5.1-codex'),
      meter.repeat(),
      meter.bill(3300, 3100, 20),
      event({ type: 'agent_message', message: 'Done.' }),
      assistant('Done.'),
    ];
    const session = importOf(records);
    expect(session).toMatchObject({ id: 'rollout-1', source: 'codex', api: 'responses', system: null });
    expect(session.tools).toBeNull();
    expect(session.entries.map((e) => e['type'])).toEqual([
      'message',
      'message',
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'reasoning',
      'custom_tool_call',
      'custom_tool_call_output',
      'message',
    ]);
    expect(session.entries[3]).toEqual({
      type: 'reasoning',
      summary: [],
      content: null,
      encrypted_content: 'gAAAA-opaque',
    });
    expect(session.calls).toEqual([
      {
        end: 3,
        replyEnd: 5,
        model: 'gpt-5-codex',
        usage: { input: 1000, cacheWrite: 0, cacheRead: 2000, output: 100 },
      },
      {
        end: 6,
        replyEnd: 8,
        model: 'gpt-5-codex',
        usage: { input: 200, cacheWrite: 0, cacheRead: 3000, output: 40 },
      },
      {
        end: 9,
        replyEnd: 10,
        model: 'gpt-5.1-codex',
        usage: { input: 200, cacheWrite: 0, cacheRead: 3100, output: 20 },
      },
    ]);
  });

  it('leaves a reply with no fresh count unbilled, and does not give it the previous bill', () => {
    const meter = new Meter();
    const session = importOf([
      meta(),
      user('go'),
      context('gpt-5-codex'),
      meter.bill(1000, 0, 10),
      functionCall('c1', 'ls'),
      functionOutput('c1', 'a.ts'),
      context('gpt-5-codex'),
      meter.repeat(),
      assistant('Here it is.'),
    ]);
    expect(session.calls.map((c) => c.usage)).toEqual([
      { input: 1000, cacheWrite: 0, cacheRead: 0, output: 10 },
      null,
    ]);
  });

  it('gives a count written straight after a reply to that reply', () => {
    const meter = new Meter();
    const session = importOf([
      meta(),
      user('go'),
      reasoning(),
      functionCall('c1', 'ls'),
      meter.bill(900, 100, 30),
      functionOutput('c1', 'a.ts'),
      assistant('Two files.'),
      meter.bill(1000, 800, 5),
    ]);
    expect(session.calls.map((c) => c.usage?.output)).toEqual([30, 5]);
  });

  it('drops a bill pending when the turn was aborted before its reply was recorded', () => {
    const meter = new Meter();
    const session = importOf([
      meta(),
      user('go'),
      meter.bill(1000, 0, 10),
      event({ type: 'turn_aborted', reason: 'interrupted' }),
      user('go again'),
      assistant('Going.'),
    ]);
    expect(session.calls).toHaveLength(1);
    expect(session.calls[0]!.usage).toBeNull();
  });

  it('keeps the items Codex sends and drops the ones it keeps for itself', () => {
    const session = importOf([
      meta(),
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] }),
      user('go'),
      item({ type: 'ghost_snapshot', ghost_commit: { id: 'abc' } }),
      item({ type: 'message', role: 'system', content: [{ type: 'input_text', text: 'internal' }] }),
      item({ type: 'local_shell_call', call_id: 's1', status: 'completed', action: { type: 'exec' } }),
      item({ type: 'local_shell_call_output', call_id: 's1', output: 'ok' }),
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'x' } }),
      assistant('Found it.'),
    ]);
    expect(session.entries.map((e) => e['role'] ?? e['type'])).toEqual([
      'developer',
      'user',
      'local_shell_call',
      'local_shell_call_output',
      'web_search_call',
      'assistant',
    ]);
    expect(session.calls.map((c) => [c.end, c.replyEnd])).toEqual([
      [2, 3],
      [4, 6],
    ]);
  });

  it('names its session from the file and prices at the default model when no line says', () => {
    const session = importOf([user('go'), assistant('ok')]);
    expect(session.id).toBe('rollout-x.jsonl');
    expect(session.calls[0]!.model).toBe(CODEX_DEFAULT_MODEL);
    expect(importOf([meta({ model: 'o4-mini' }), user('go'), assistant('ok')]).calls[0]!.model).toBe(
      'o4-mini',
    );
  });

  it('skips and counts records it cannot read, with the lines that were not JSON', () => {
    const session = importOf(
      [
        'not an object',
        null,
        { type: 'response_item' },
        line('mystery', {}),
        line('turn_context', { model: 42 }),
        event({ type: 'token_count', info: { last_token_usage: { input_tokens: 'many' } } }),
        user('go'),
        assistant('ok'),
      ],
      2,
    );
    expect(session.skippedLines).toBe(8);
    expect(session.calls).toEqual([{ end: 1, replyEnd: 2, model: CODEX_DEFAULT_MODEL, usage: null }]);
  });

  it('throws a ValidationError naming the record and field of a broken conversation item', () => {
    const records = [meta(), user('go'), item({ type: 'function_call', name: 'shell', call_id: 'c1' })];
    expect(() => importOf(records)).toThrow(ValidationError);
    expect(() => importOf(records)).toThrow(
      /record 3 \(response_item function_call\)[\s\S]*payload\.arguments/,
    );
  });

  it('ends the import at a compaction, whose later requests do not extend the conversation', () => {
    const session = importOf([
      meta(),
      user('go'),
      assistant('ok'),
      line('compacted', { message: 'summary', replacement_history: [] }),
      user('more'),
      assistant('more'),
    ]);
    expect(session.entries).toHaveLength(2);
    expect(session.calls).toHaveLength(1);
  });
});

describe('looksLikeCodexRollout', () => {
  it('accepts rollout lines and refuses other logs', () => {
    expect(looksLikeCodexRollout([meta()])).toBe(true);
    expect(looksLikeCodexRollout([{ x: 1 }, user('go')])).toBe(true);
    expect(looksLikeCodexRollout([{ type: 'user', message: { role: 'user', content: 'hi' } }])).toBe(false);
    expect(looksLikeCodexRollout([{ type: 'session_meta' }])).toBe(false);
  });

  it('routes a rollout file to this importer, counting its unreadable lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codex-rollout-'));
    const file = join(dir, 'rollout-2025-11-13T16-00-16-abc.jsonl');
    const text = [meta(), user('go'), assistant('ok')].map((r) => JSON.stringify(r)).join('\n');
    writeFileSync(file, `${text}\n{"cut short`);
    const [session] = importFile(file);
    expect(session).toMatchObject({ id: 'rollout-1', source: 'codex', skippedLines: 1 });
    expect(session!.calls).toHaveLength(1);
  });
});
