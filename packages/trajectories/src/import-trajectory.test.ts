import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { detectTrajectoryFormat, importTrajectories, importTrajectory } from './import-trajectory.js';

const jsonl = (records: readonly unknown[]): string =>
  records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A Claude Code session log as Claude Code writes it: one JSON object per line, streamed parts split. */
const CLAUDE_CODE = jsonl([
  { type: 'summary', summary: 'Fix failing test', leafUuid: 'u9' },
  {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/repo',
    sessionId: 'sess-1',
    version: '2.0.14',
    type: 'user',
    message: { role: 'user', content: 'The test in tests/test_math.py fails, please fix it.' },
    uuid: 'u1',
    timestamp: '2026-05-01T10:00:00.000Z',
  },
  {
    parentUuid: 'u1',
    isSidechain: false,
    sessionId: 'sess-1',
    type: 'assistant',
    message: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'thinking', thinking: 'Read the test first.', signature: 'sig' }],
      stop_reason: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    uuid: 'u2',
  },
  {
    parentUuid: 'u2',
    isSidechain: false,
    sessionId: 'sess-1',
    type: 'assistant',
    message: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/tests/test_math.py' } },
      ],
    },
    uuid: 'u3',
  },
  {
    parentUuid: 'u3',
    isSidechain: false,
    sessionId: 'sess-1',
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          tool_use_id: 'toolu_1',
          type: 'tool_result',
          content: '     1\tdef test_add():\n     2\t    assert add(1, 2) == 4\n',
        },
      ],
    },
    toolUseResult: { type: 'text' },
    uuid: 'u4',
  },
  {
    parentUuid: 'u4',
    isSidechain: true,
    sessionId: 'sess-1',
    type: 'user',
    message: { role: 'user', content: 'a sub-agent prompt, not part of the main conversation' },
    uuid: 'u5',
  },
  {
    parentUuid: 'u4',
    isSidechain: false,
    sessionId: 'sess-1',
    type: 'assistant',
    message: {
      id: 'msg_02',
      role: 'assistant',
      content: [{ type: 'text', text: 'The expected value is wrong: 1 + 2 is 3.' }],
    },
    uuid: 'u6',
  },
]);

const SWE_AGENT = {
  environment: 'swe_main',
  history: [
    { role: 'system', content: 'SETTING: you are an autonomous programmer.', agent: 'main' },
    {
      role: 'user',
      content: 'Here is a demonstration of how to correctly accomplish this task.',
      agent: 'main',
      is_demo: true,
    },
    { role: 'user', content: 'ISSUE: division crashes with a SyntaxError', agent: 'main' },
    {
      role: 'assistant',
      content: 'Open the file.\n```\nopen "tests/missing_colon.py"\n```',
      thought: 'Open the file.',
      action: 'open "tests/missing_colon.py"\n',
      agent: 'main',
    },
    {
      role: 'user',
      content: '[File: tests/missing_colon.py (10 lines total)]\n1:def division(a, b)\n2:    return a/b',
      agent: 'main',
    },
    {
      role: 'assistant',
      content: 'Add the colon.',
      thought: 'Add the colon.',
      action: 'edit 1:1\ndef division(a, b):\nend_of_edit\n',
      agent: 'main',
    },
    { role: 'user', content: 'File updated.', agent: 'main' },
    { role: 'assistant', content: 'Done.', thought: 'Done.', action: 'submit\n', agent: 'main' },
    { role: 'user', content: 'diff --git a/tests/missing_colon.py b/tests/missing_colon.py', agent: 'main' },
  ],
  trajectory: [],
  info: { exit_status: 'submitted' },
};

const openHandsRun = (instance: string): unknown => ({
  instance_id: instance,
  instruction: 'Fix the parser',
  history: [
    {
      id: 0,
      source: 'agent',
      message: 'You are OpenHands agent.',
      action: 'system',
      args: { content: 'You are OpenHands agent.' },
    },
    {
      id: 1,
      source: 'user',
      message: 'Fix the parser',
      action: 'message',
      args: { content: 'Fix the parser' },
    },
    {
      id: 2,
      source: 'user',
      message: 'Retrieving content',
      action: 'recall',
      args: { query: 'Fix the parser' },
    },
    {
      id: 3,
      source: 'agent',
      message: 'Running command: ls',
      action: 'run',
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: 'toolu_01',
        model_response: {
          id: 'resp-1',
          choices: [
            {
              message: {
                tool_calls: [
                  { id: 'toolu_01', function: { name: 'execute_bash', arguments: '{"command": "ls"}' } },
                ],
              },
            },
          ],
        },
      },
      args: { command: 'ls', thought: 'List the files first.', blocking: false },
    },
    {
      id: 4,
      source: 'agent',
      message: 'Command `ls` executed',
      cause: 3,
      observation: 'run',
      content: 'parser.c\nlexer.c',
      tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'toolu_01' },
      extras: { exit_code: 0 },
    },
    {
      id: 5,
      source: 'agent',
      message: 'All done',
      action: 'finish',
      tool_call_metadata: { function_name: 'finish', tool_call_id: 'toolu_02' },
      args: { final_thought: 'Fixed.' },
    },
  ],
});

describe('importTrajectories', () => {
  it("reads Distil's own format", () => {
    const own = {
      id: 'own',
      turns: [
        {
          blocks: [{ id: 'a', role: 'user', kind: 'chat', text: 'hi', trusted: true }],
          decision: { type: 'final', text: 'hello' },
        },
      ],
    };
    expect(detectTrajectoryFormat(own)).toBe('distil');
    expect(importTrajectory(own)).toEqual({
      format: 'distil.trajectory/v1',
      id: 'own',
      turns: own.turns,
      outcome: null,
    });
  });

  it('reads a SWE-agent .traj: decisions from actions, observations untrusted, demonstrations kept as context', () => {
    expect(detectTrajectoryFormat(SWE_AGENT)).toBe('swe-agent');
    const t = importTrajectory(SWE_AGENT, 'swe');
    expect(t.source).toBe('swe-agent');
    expect(t.turns.map((turn) => turn.decision)).toEqual([
      { type: 'tool_call', tool: 'open', arguments: { argv: ['tests/missing_colon.py'] } },
      {
        type: 'tool_call',
        tool: 'edit',
        arguments: { argv: ['1:1'], input: 'def division(a, b):\nend_of_edit' },
      },
      { type: 'tool_call', tool: 'submit', arguments: { argv: [] } },
    ]);
    const first = t.turns[0]!.blocks;
    expect(first.map((b) => [b.role, b.trusted])).toEqual([
      ['system', true],
      ['user', true],
      ['user', true],
    ]);
    const observation = t.turns[1]!.blocks[1]!;
    expect(observation).toMatchObject({ role: 'tool', trusted: false, tool: 'open' });
    // the submit's output was never sent to the model
    expect(t.turns.flatMap((turn) => turn.blocks).some((b) => b.text.startsWith('diff --git'))).toBe(false);
  });

  it('reads a SWE-agent demonstration written as YAML, and names the line of bad YAML', () => {
    const dir = mkdtempSync(join(tmpdir(), 'distil-import-'));
    const demo = join(dir, 'demo.yaml');
    writeFileSync(
      demo,
      [
        '# a demonstration',
        'history:',
        '  - role: system',
        '    agent: main',
        '    content: You are a coding agent.',
        '  - role: user',
        '    agent: main',
        '    message_type: observation',
        '    content: Fix the missing colon.',
        '  - role: assistant',
        '    agent: main',
        '    message_type: action',
        '    content: Let me look.',
        '    tool_calls:',
        '      - function:',
        '          name: str_replace_editor',
        '          arguments: \'{"command": "view", "path": "/repo/a.py"}\'',
        '        id: toolu_1',
        '  - role: tool',
        '    agent: main',
        '    message_type: observation',
        '    content: "1 def f()"',
        '',
      ].join('\n'),
    );
    const t = importTrajectory(demo);
    expect(t.id).toBe('demo');
    expect(t.turns[0]!.decision).toEqual({
      type: 'tool_call',
      tool: 'str_replace_editor',
      arguments: { command: 'view', path: '/repo/a.py' },
    });
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'history:\n  - role: user\n content: [unclosed\n');
    expect(() => importTrajectory(bad)).toThrow(/line \d+: not valid YAML/);
  });

  it('reads SWE-agent steps when there is no history', () => {
    const t = importTrajectory(
      { trajectory: [{ action: 'ls -la', observation: 'a.py', thought: 'look', response: 'look\nls -la' }] },
      'steps',
    );
    expect(t.turns[0]!.decision).toEqual({ type: 'tool_call', tool: 'ls', arguments: { argv: ['-la'] } });
  });

  it('reads every run of an OpenHands output.jsonl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'distil-import-'));
    const path = join(dir, 'output.jsonl');
    writeFileSync(path, jsonl([openHandsRun('repo__1'), openHandsRun('repo__2')]));
    const runs = importTrajectories(path);
    expect(runs.map((r) => r.id)).toEqual(['repo__1', 'repo__2']);
    const [run] = runs;
    expect(run!.turns.map((t) => t.decision)).toEqual([
      { type: 'tool_call', tool: 'execute_bash', arguments: { command: 'ls' } },
      { type: 'tool_call', tool: 'finish', arguments: { final_thought: 'Fixed.' } },
    ]);
    expect(run!.turns[1]!.blocks.map((b) => [b.role, b.tool ?? null, b.trusted])).toEqual([
      ['assistant', null, false],
      ['tool', 'execute_bash', false],
    ]);
    expect(run!.turns[1]!.blocks[0]!.text).toBe('List the files first.\nexecute_bash({"command":"ls"})');
  });

  it('reads a Claude Code session log, joining the streamed parts of one message', () => {
    expect(detectTrajectoryFormat(CLAUDE_CODE)).toBe('claude-code');
    const t = importTrajectory(CLAUDE_CODE, 'cc');
    expect(t.id).toBe('sess-1');
    expect(t.turns.map((turn) => turn.decision)).toEqual([
      { type: 'tool_call', tool: 'Read', arguments: { file_path: '/repo/tests/test_math.py' } },
      { type: 'final', text: 'The expected value is wrong: 1 + 2 is 3.' },
    ]);
    expect(t.turns[1]!.blocks.map((b) => [b.role, b.tool ?? null, b.kind])).toEqual([
      ['assistant', null, 'chat'],
      ['tool', 'Read', 'tool_output'],
    ]);
    expect(t.turns.flatMap((turn) => turn.blocks).some((b) => b.text.includes('sub-agent'))).toBe(false);
  });

  it('reads an Anthropic Messages body: tools and system open the context, the pending turn is kept', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are a coding agent.' }],
      tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'Why does CI fail?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'make test' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'FAIL test_io' }] },
          ],
        },
      ],
    };
    expect(detectTrajectoryFormat(body)).toBe('anthropic-messages');
    const t = importTrajectory(body, 'req');
    expect(t.turns[0]!.blocks.map((b) => b.kind)).toEqual(['schema', 'doc', 'chat']);
    expect(t.turns[0]!.decision).toEqual({
      type: 'tool_call',
      tool: 'bash',
      arguments: { command: 'make test' },
    });
    expect(t.turns[1]!.decision).toBeNull();
    expect(t.turns[1]!.blocks[1]).toMatchObject({
      role: 'tool',
      tool: 'bash',
      text: 'FAIL test_io',
      trusted: false,
    });
  });

  it('reads an OpenAI Chat Completions body', () => {
    const body = {
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Why does CI fail?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"make test"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'FAIL test_io' },
        { role: 'assistant', content: 'test_io fails on a missing fixture.' },
      ],
    };
    expect(detectTrajectoryFormat(body)).toBe('openai-chat');
    const t = importTrajectory(body, 'req');
    expect(t.turns.map((turn) => turn.decision)).toEqual([
      { type: 'tool_call', tool: 'bash', arguments: { command: 'make test' } },
      { type: 'final', text: 'test_io fails on a missing fixture.' },
      null,
    ]);
    expect(t.turns[1]!.blocks[1]).toMatchObject({ role: 'tool', tool: 'bash' });
  });

  it("reads a subagent's own log, every line of which is a sidechain", () => {
    const subagent = jsonl([
      {
        isSidechain: true,
        sessionId: 's',
        type: 'user',
        message: { role: 'user', content: 'Review the plan.' },
      },
      {
        isSidechain: true,
        sessionId: 's',
        type: 'assistant',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'The plan is sound.' }] },
      },
    ]);
    const [t] = importTrajectories(subagent);
    expect(t!.turns.at(-1)!.decision).toEqual({ type: 'final', text: 'The plan is sound.' });
  });

  it('names the line and field it cannot read', () => {
    const user = jsonl([{ type: 'user', message: { role: 'user', content: 'hi' } }]);
    const badLine = `${user}{not json\n${user}`;
    expect(() => importTrajectories(badLine)).toThrow(/line 2: not valid JSON/);
    // a last line cut off mid-write is what an agent leaves when it stops: the rest still imports
    expect(importTrajectories(`${user}{"type":"user","mess\n`)[0]!.turns).toHaveLength(1);
    const badPart = jsonl([{ type: 'user', message: { role: 'user', content: [{ type: 'tool_result' }] } }]);
    try {
      importTrajectories(badPart);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toContain('Claude Code session, line 1: message');
      expect((error as ValidationError).issues[0]!.path).toMatch(/^content/);
    }
    expect(() =>
      importTrajectory({ history: [{ role: 'robot', content: 'x', action: 'ls' }] }, 'bad'),
    ).toThrow(/history\.0\.role/);
    expect(() => importTrajectory({ hello: 'world' })).toThrow(/unrecognised format/);
  });
});
