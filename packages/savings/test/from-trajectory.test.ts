import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block, Decision, Trajectory } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import {
  type RecordedSession,
  sessionFromTrajectory,
  sessionsFromTrajectories,
  TRAJECTORY_DEFAULT_MODEL,
} from '../src/index.js';

type Part = Record<string, unknown>;
type Message = { role: string; content: Part[] };

let nextBlock = 0;
const block = (role: Block['role'], text: string): Block => ({
  id: `b${nextBlock++}`,
  role,
  kind: role === 'tool' ? 'tool_output' : 'chat',
  text,
  trusted: role === 'system' || role === 'user',
});
const call = (tool: string, args: Record<string, unknown> = {}): Decision => ({
  type: 'tool_call',
  tool,
  arguments: args,
});
const final = (text: string): Decision => ({ type: 'final', text });
const trajectory = (turns: Trajectory['turns']): Trajectory => ({
  format: 'distil.trajectory/v1',
  id: 't1',
  turns,
  outcome: null,
});
const messages = (session: RecordedSession): Message[] => session.entries as Message[];

/** What the Messages API would refuse in a session's conversation; empty when every request is valid. */
function apiProblems(session: RecordedSession): string[] {
  const problems: string[] = [];
  const entries = messages(session);
  const defined = new Set((session.tools ?? []).map((t) => t['name']));
  if (entries[0]?.role !== 'user') problems.push('first message is not user');
  entries.forEach((m, k) => {
    if (k > 0 && entries[k - 1]!.role === m.role) problems.push(`${k}: same role as the message before`);
    if (m.content.length === 0) problems.push(`${k}: empty content`);
    let textSeen = false;
    for (const part of m.content) {
      if (part['type'] === 'text') {
        if (String(part['text']).trim() === '') problems.push(`${k}: blank text part`);
        textSeen = true;
      }
      if (part['type'] === 'tool_result') {
        if (textSeen) problems.push(`${k}: tool_result after text`);
        const before = entries[k - 1];
        const paired = before?.content.some(
          (p) => p['type'] === 'tool_use' && p['id'] === part['tool_use_id'],
        );
        if (!paired) problems.push(`${k}: tool_result without its tool_use`);
      }
      if (part['type'] === 'tool_use') {
        if (!defined.has(part['name'])) problems.push(`${k}: tool ${String(part['name'])} not defined`);
        const after = entries[k + 1];
        const answered = after?.content.some(
          (p) => p['type'] === 'tool_result' && p['tool_use_id'] === part['id'],
        );
        if (after && !answered) problems.push(`${k}: tool_use ${String(part['id'])} unanswered`);
      }
    }
  });
  for (const c of session.calls) {
    if (entries[c.end]?.role !== 'assistant') problems.push(`call at ${c.end} is not an assistant message`);
    if (c.replyEnd !== c.end + 1) problems.push(`call at ${c.end} has replyEnd ${c.replyEnd}`);
  }
  return problems;
}

describe('sessionFromTrajectory', () => {
  it('turns context into user messages and decisions into replies, pairing each call with its result', () => {
    const t = trajectory([
      {
        blocks: [block('system', 'You fix bugs.'), block('system', 'Be brief.'), block('user', 'Fix a.ts')],
        decision: call('bash', { command: 'cat a.ts' }),
      },
      {
        blocks: [block('assistant', 'Reading the file.'), block('tool', 'const a = 1;')],
        decision: call('edit', { path: 'a.ts', text: 'const a = 2;' }),
      },
      { blocks: [block('tool', 'edited')], decision: final('Fixed.') },
    ]);
    const session = sessionFromTrajectory(t, 'a.json', 'distil');

    expect(session.system).toBe('You fix bugs.\n\nBe brief.');
    expect(session.api).toBe('messages');
    expect(messages(session)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fix a.ts' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading the file.' },
          { type: 'tool_use', id: 'toolu_0', name: 'bash', input: { command: 'cat a.ts' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0', content: 'const a = 1;' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'edit', input: { path: 'a.ts', text: 'const a = 2;' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'edited' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
    ]);
    expect(session.calls).toEqual([
      { end: 1, replyEnd: 2, model: TRAJECTORY_DEFAULT_MODEL, usage: null },
      { end: 3, replyEnd: 4, model: TRAJECTORY_DEFAULT_MODEL, usage: null },
      { end: 5, replyEnd: 6, model: TRAJECTORY_DEFAULT_MODEL, usage: null },
    ]);
    expect(apiProblems(session)).toEqual([]);
  });

  it('keeps every request valid when turns add nothing, answer twice or carry extra assistant text', () => {
    const t = trajectory([
      // A demonstration's answer before the task: the conversation must still open with the user.
      { blocks: [block('assistant', 'demo answer'), block('user', 'task')], decision: call('look') },
      // No observation at all: the call still needs a result.
      { blocks: [block('assistant', 'looking')], decision: call('run', { argv: ['x'] }) },
      // Two results, a second call of the same response and its result, then text before the answer.
      {
        blocks: [
          block('tool', 'first'),
          block('tool', 'second'),
          block('assistant', 'and more'),
          block('tool', 'third'),
          block('assistant', 'so'),
        ],
        decision: final('done'),
      },
      // Nothing between two replies.
      { blocks: [], decision: final('') },
    ]);
    const session = sessionFromTrajectory(t, 'b.json', 'openhands');
    const entries = messages(session);

    expect(apiProblems(session)).toEqual([]);
    expect(session.system).toBeNull();
    expect(entries[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '(no output)' }] });
    expect(entries[1]!.role).toBe('assistant');
    expect(entries[3]!.content).toEqual([
      { type: 'text', text: 'looking' },
      expect.objectContaining({ id: 'toolu_0' }),
    ]);
    expect(entries[4]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_0', content: '(no output)' },
    ]);
    expect(entries[6]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'first' },
      { type: 'text', text: 'second' },
    ]);
    expect(entries[7]!.content).toEqual([{ type: 'text', text: 'and more' }]);
    expect(entries[8]!.content).toEqual([{ type: 'text', text: 'third' }]);
    expect(entries[9]!.content).toEqual([
      { type: 'text', text: 'so' },
      { type: 'text', text: 'done' },
    ]);
    expect(entries[10]!.content).toEqual([{ type: 'text', text: '(no output)' }]);
    expect(entries.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '(no output)' }] });
    expect(session.calls.map((c) => c.end)).toEqual([3, 5, 9, 11]);
  });

  it('drops the call an importer wrote after the thought, since the tool_use carries it', () => {
    const decision = call('execute_bash', { command: 'ls' });
    const t = trajectory([
      { blocks: [block('user', 'task')], decision },
      { blocks: [block('assistant', 'List files.\nexecute_bash({"command":"ls"})')], decision: final('ok') },
    ]);
    const reply = messages(sessionFromTrajectory(t, 'c.json', 'openhands'))[1]!;
    expect(reply.content[0]).toEqual({ type: 'text', text: 'List files.' });
  });

  it('defines every tool it calls under a name the API accepts, with the argument keys seen', () => {
    const t = trajectory([
      { blocks: [block('user', 'task')], decision: call('./rock', { argv: ['a'] }) },
      { blocks: [block('tool', 'x')], decision: call('edit', { path: 'a', line: 3 }) },
      { blocks: [block('tool', 'y')], decision: call('edit', { path: 'b', body: 'z' }) },
    ]);
    const session = sessionFromTrajectory(t, 'd.json', 'swe-agent', 'claude-opus-4-5');
    expect(session.tools).toEqual([
      {
        name: '__rock',
        description: 'Tool used by the recorded agent.',
        input_schema: { type: 'object', properties: { argv: {} } },
      },
      {
        name: 'edit',
        description: 'Tool used by the recorded agent.',
        input_schema: {
          type: 'object',
          properties: { path: { type: 'string' }, line: {}, body: { type: 'string' } },
        },
      },
    ]);
    expect(messages(session)[1]!.content[0]).toMatchObject({ name: '__rock' });
    expect(session.calls.every((c) => c.model === 'claude-opus-4-5')).toBe(true);
    expect(apiProblems(session)).toEqual([]);
  });
});

describe('sessionsFromTrajectories', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-trajectories-'));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads a SWE-agent trajectory', () => {
    const file = write(
      'run.traj',
      JSON.stringify({
        history: [
          { role: 'system', content: 'You are in a shell.' },
          { role: 'user', content: 'Fix the bug.' },
          { role: 'assistant', content: 'List files.\n```\nls\n```', thought: 'List files.', action: 'ls' },
          { role: 'user', content: 'a.py' },
          { role: 'assistant', content: 'Done.\n```\nsubmit\n```', thought: 'Done.', action: 'submit' },
        ],
      }),
    );
    const [session] = sessionsFromTrajectories(file);
    expect(session).toMatchObject({ id: 'run', source: 'swe-agent', file, system: 'You are in a shell.' });
    expect(session!.calls).toHaveLength(2);
    expect(messages(session!)[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_0', content: 'a.py' },
    ]);
    expect(apiProblems(session!)).toEqual([]);
  });

  it('reads every run of an OpenHands output.jsonl', () => {
    const run = (id: string) =>
      JSON.stringify({
        instance_id: id,
        history: [
          { source: 'agent', action: 'system', args: { content: 'You are OpenHands.' } },
          { source: 'user', action: 'message', args: { content: 'Fix it.' } },
          {
            source: 'agent',
            action: 'run',
            args: { command: 'ls', thought: 'Look first.' },
            tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'c1' },
          },
          {
            source: 'environment',
            observation: 'run',
            content: 'a.c',
            tool_call_metadata: { function_name: 'execute_bash' },
          },
          { source: 'agent', action: 'message', args: { content: 'Fixed.' } },
        ],
      });
    const sessions = sessionsFromTrajectories(write('output.jsonl', `${run('one')}\n${run('two')}\n`));
    expect(sessions.map((s) => [s.id, s.source, s.calls.length])).toEqual([
      ['one', 'openhands', 2],
      ['two', 'openhands', 2],
    ]);
    expect(messages(sessions[0]!)[1]!.content).toEqual([
      { type: 'text', text: 'Look first.' },
      { type: 'tool_use', id: 'toolu_0', name: 'execute_bash', input: { command: 'ls' } },
    ]);
    expect(sessions.flatMap(apiProblems)).toEqual([]);
  });

  it("reads Distil's own trajectories whatever wrote them", () => {
    const t = trajectory([{ blocks: [block('user', 'hi')], decision: final('hello') }]);
    const [session] = sessionsFromTrajectories(
      write('own.json', JSON.stringify({ ...t, source: 'generate.ts' })),
    );
    expect(session).toMatchObject({ id: 't1', source: 'distil', calls: [{ end: 1, replyEnd: 2 }] });
  });

  it('refuses a Claude Code log, naming the file', () => {
    const line = JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content: 'hi' } });
    const file = write('claude.jsonl', `${line}\n`);
    expect(() => sessionsFromTrajectories(file)).toThrow(/claude\.jsonl[\s\S]*claude-code file/);
  });
});
