import { describe, expect, it } from 'vitest';
import { importClaudeCodeLog, parseJsonLines, requestBody, shippedProfile } from '../src/index.js';
import { claudeCodeLog } from './claude-code-fixture.js';

const imported = (text: string, file = 'session.jsonl') => {
  const { records, skipped } = parseJsonLines(text);
  return importClaudeCodeLog(records, file, skipped.length);
};

describe('Claude Code logs as the requests Claude Code made', () => {
  it('makes one call per reply, its streamed parts one message, with the usage the provider billed', () => {
    const session = imported(claudeCodeLog());
    expect(session.source).toBe('claude-code');
    expect(session.id).toBe('session-0001');
    expect(session.calls).toHaveLength(3);
    expect(session.entries.map((e) => e['role'])).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const first = session.entries[1]!['content'] as { type: string }[];
    expect(first.map((p) => p.type)).toEqual(['thinking', 'tool_use']);
    expect(session.calls[1]).toMatchObject({ end: 3, replyEnd: 4, model: 'claude-sonnet-4-5' });
    expect(session.calls[1]!.usage).toEqual({ input: 3, cacheWrite: 9000, cacheRead: 14_000, output: 90 });
  });

  it('leaves out replies Claude Code made up itself and counts a line cut off mid-write', () => {
    const session = imported(claudeCodeLog({ truncatedTail: true }));
    expect(session.skippedLines).toBe(1);
    expect(JSON.stringify(session.entries)).not.toContain('No response requested.');
  });

  it("reads a subagent's log as a session of its own", () => {
    const session = imported(claudeCodeLog({ sidechain: true }), '/p/subagents/agent-a1.jsonl');
    expect(session.source).toBe('claude-code-subagent');
    expect(session.id).toBe('session-0001/agent-a1');
    expect(session.calls).toHaveLength(3);
  });

  it('rebuilds each request with the profile in front and the breakpoint on the last part', () => {
    const session = imported(claudeCodeLog());
    const profile = shippedProfile('messages');
    const body = requestBody(session, profile, 1) as {
      system: unknown[];
      tools: unknown[];
      messages: { content: { type: string; cache_control?: unknown }[] }[];
    };
    expect(body.system).toEqual(profile.api === 'messages' ? profile.system : []);
    expect(body.tools.length).toBeGreaterThan(5);
    expect(body.messages).toHaveLength(3);
    expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0]!.content.at(-1)!.cache_control).toBeUndefined();
    const ceiling = requestBody(session, profile, 1, 'removed') as {
      messages: { content: { content?: unknown }[] }[];
    };
    expect(ceiling.messages[2]!.content[0]!.content).toBe('');
  });
});
