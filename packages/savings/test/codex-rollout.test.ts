import { describe, expect, it } from 'vitest';
import {
  importCodexRollout,
  looksLikeCodexRollout,
  parseJsonLines,
  requestBody,
  shippedProfile,
} from '../src/index.js';

/** A Codex rollout as Codex 0.5x writes one: two calls, an apply_patch, an answer, repeated counts. */
function rollout(): string {
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: '2026-11-30T10:00:00Z', type, payload });
  const count = (total: number, input: number, cached: number, output: number) =>
    line('event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: { total_tokens: total },
        last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
      },
    });
  return [
    line('session_meta', { id: 'rollout-0001', cwd: '/work/project', cli_version: '0.57.0' }),
    line('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<user_instructions>…' }],
    }),
    line('turn_context', { model: 'gpt-5-codex', cwd: '/work/project' }),
    line('event_msg', { type: 'user_message', message: 'Why does the build fail?' }),
    line('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Why does the build fail?' }],
    }),
    line('event_msg', { type: 'token_count', info: null }),
    line('response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAA' }),
    line('response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":["npm","test"]}',
      call_id: 'call_1',
    }),
    line('response_item', {
      type: 'function_call_output',
      call_id: 'call_1',
      output: '{"output":"FAIL src/a.test.ts\\n","metadata":{"exit_code":1}}',
    }),
    count(5000, 4000, 3072, 100),
    count(5000, 4000, 3072, 100),
    'not json at all',
    line('response_item', {
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: '*** Begin Patch',
      call_id: 'call_2',
    }),
    line('response_item', { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Success.' }),
    count(9500, 4400, 3968, 80),
    line('response_item', { type: 'ghost_snapshot', ghost_commit: {} }),
    line('turn_context', { model: 'gpt-5.1-codex' }),
    line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Fixed src/a.ts.' }],
    }),
    line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
  ].join('\n');
}

describe('Codex rollouts as the requests Codex made', () => {
  const { records, skipped } = parseJsonLines(rollout());
  const session = importCodexRollout(records, '/s/rollout-x.jsonl', skipped.length);

  it('is recognised, and an unreadable line is counted, not fatal', () => {
    expect(looksLikeCodexRollout(records)).toBe(true);
    expect(looksLikeCodexRollout([{ type: 'user', message: {} }])).toBe(false);
    expect(session.skippedLines).toBe(1);
    expect(session.id).toBe('rollout-0001');
  });

  it('makes a call of each run of model items, with the usage counted after it', () => {
    expect(session.calls.map((c) => [c.end, c.replyEnd, c.model])).toEqual([
      [2, 4, 'gpt-5-codex'],
      [5, 6, 'gpt-5-codex'],
      [7, 8, 'gpt-5.1-codex'],
    ]);
    expect(session.calls[0]!.usage).toEqual({ input: 928, cacheWrite: 0, cacheRead: 3072, output: 100 });
    // the repeated count is not the second call's
    expect(session.calls[1]!.usage).toEqual({ input: 432, cacheWrite: 0, cacheRead: 3968, output: 80 });
    expect(session.calls[2]!.usage).toBeNull();
    expect(session.entries.some((e) => e['type'] === 'ghost_snapshot')).toBe(false);
  });

  it("rebuilds a request with Codex's own prompt in front and the rollout's items after it", () => {
    const profile = shippedProfile('responses');
    const body = requestBody(session, profile, 1) as {
      input: Record<string, unknown>[];
      tools: unknown[];
      prompt_cache_key: string;
    };
    const prelude = profile.api === 'responses' ? profile.prelude.length : 0;
    expect(body.input).toHaveLength(prelude + 5);
    expect(body.input[0]!['role']).toBe('developer');
    expect(body.input.at(-1)).toMatchObject({ type: 'function_call_output', call_id: 'call_1' });
    expect(body.prompt_cache_key).toBe('rollout-0001');
    expect(body.tools.length).toBeGreaterThan(3);
  });
});
