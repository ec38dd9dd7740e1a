import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, startTestProxy } from './fixtures.js';
import { claudeCodeRequest, codexRequest } from './wire-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes, read by path
type Json = any;

const ANTHROPIC_HEADERS = {
  'content-type': 'application/json',
  'x-api-key': 'sk-ant-test',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,context-management-2025-06-27,mid-conversation-system-2026-04-07',
};
const OPENAI_HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-test' };

/** The tool-result texts of a Messages body, by path (`m.p`), as the reader of tool results sees them. */
function toolResultTexts(body: Json): Map<string, string> {
  const out = new Map<string, string>();
  body.messages.forEach((message: Json, m: number) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part: Json, p: number) => {
      if (part.type === 'tool_result' && typeof part.content === 'string') out.set(`${m}.${p}`, part.content);
    });
  });
  return out;
}

/** The JSON path of the tool result at `m.p`. */
function toolResultPath(at: string): (string | number)[] {
  const [m, p] = at.split('.').map(Number);
  return ['messages', m!, 'content', p!, 'content'];
}

/**
 * `sent` with the strings at the given paths (and the appended distil tools) taken from what the
 * upstream `got`: when the result, serialised, equals the bytes the upstream received, nothing else in
 * the request changed by a single byte.
 */
function onlyTheseChanged(
  sent: Json,
  got: ReceivedRequest,
  paths: readonly (readonly (string | number)[])[],
): void {
  const expected = structuredClone(sent);
  for (const path of paths) {
    let from: Json = got.json;
    let into: Json = expected;
    for (const step of path.slice(0, -1)) {
      from = from[step];
      into = into[step];
    }
    into[path.at(-1)!] = from[path.at(-1)!];
  }
  if (Array.isArray(got.json.tools) && got.json.tools.length > (sent.tools?.length ?? 0)) {
    expect(got.json.tools.slice(0, sent.tools?.length ?? 0)).toEqual(sent.tools ?? []);
    expected.tools = got.json.tools;
  }
  expect(got.body).toBe(JSON.stringify(expected));
}

describe('the request shapes current clients send, through the proxy', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let sessionNo = 0;

  beforeAll(async () => {
    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  async function postMessages(body: string, session = `wire-${++sessionNo}`): Promise<ReceivedRequest> {
    upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'done' }] });
    const response = await fetch(`${proxy.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { ...ANTHROPIC_HEADERS, 'x-distil-session': session },
      body,
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    return upstream.received.at(-1)!;
  }

  it('Claude Code on its default model: tool results compressed, the system message and the rest byte for byte', async () => {
    const fixture = claudeCodeRequest();
    const got = await postMessages(fixture.bytes);
    const before = toolResultTexts(fixture.json);
    const after = toolResultTexts(got.json);
    const changed = [...before].filter(([at, text]) => after.get(at) !== text).map(([at]) => at);
    // The 300-line CI log is folded; its failures stay in view.
    const log = before.get('3.0')!;
    expect(changed).toContain('3.0');
    expect(after.get('3.0')!.length).toBeLessThan(log.length / 2);
    expect(after.get('3.0')).toContain('handle=dh_');
    const failures = log.split('\n').filter((line) => line.includes('ERROR'));
    expect(failures.length).toBeGreaterThan(0);
    for (const line of failures) expect(after.get('3.0')).toContain(line);
    const paths = changed.map((at) => toolResultPath(at));
    onlyTheseChanged(fixture.json, got, paths);
  });

  it('an unknown role and unknown parts go upstream byte for byte, and the rest is still compressed', async () => {
    const fixture = claudeCodeRequest();
    const body = structuredClone(fixture.json);
    const log = buildLog(400, 'future');
    body.messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_future', name: 'Bash', input: { command: 'make' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_future',
            content: [
              { type: 'hologram', frames: [1, 2, 3], note: 'a part type newer than the proxy' },
              { type: 'text', text: log },
            ],
          },
          { type: 'future_part', payload: { nested: ['kept', 'as', 'it', 'is'] } },
        ],
      },
      { role: 'narrator', content: [{ type: 'text', text: 'a role newer than the proxy' }] },
    );
    const sent = JSON.stringify(body);
    const got = await postMessages(sent);
    const m = body.messages.length - 2;
    const compressed = got.json.messages[m].content[0].content[1].text as string;
    expect(compressed.length).toBeLessThan(log.length / 2);
    expect(compressed).toContain('ERROR future');
    const before = toolResultTexts(body);
    const after = toolResultTexts(got.json);
    const paths: (string | number)[][] = [['messages', m, 'content', 0, 'content', 1, 'text']];
    for (const [at, text] of before) if (after.get(at) !== text) paths.push(toolResultPath(at));
    onlyTheseChanged(body, got, paths);
  });

  it('follows a compaction: nothing before it is read, nothing after it points back at it', async () => {
    const log = buildLog(300, 'nightly');
    const question = { role: 'user', content: 'why does the job fail?' };
    const call = (id: string) => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'cat ci.log' } }],
    });
    const result = (id: string, text: string) => ({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: text }],
    });
    // Without a compaction, the same output read again is a back-reference to the first copy.
    const plain = `plain-${++sessionNo}`;
    await postMessages(
      JSON.stringify({
        model: 'claude-opus-4-8',
        max_tokens: 64,
        messages: [question, call('t1'), result('t1', log)],
      }),
      plain,
    );
    const resent = await postMessages(
      JSON.stringify({
        model: 'claude-opus-4-8',
        max_tokens: 64,
        messages: [question, call('t1'), result('t1', log), call('t2'), result('t2', log)],
      }),
      plain,
    );
    expect(resent.json.messages[4].content[0].content).toMatch(/^<< same as #1/);

    // With a compaction between them, the provider no longer sends the first copy to the model.
    const compacted = `compacted-${++sessionNo}`;
    const first = await postMessages(
      JSON.stringify({
        model: 'claude-opus-4-8',
        max_tokens: 64,
        messages: [question, call('t1'), result('t1', log)],
      }),
      compacted,
    );
    expect(first.json.messages[2].content[0].content).not.toBe(log);
    const compaction = {
      role: 'assistant',
      content: [
        { type: 'compaction', content: 'Summary: the nightly job was run once; its log was read.' },
        { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'cat ci.log' } },
      ],
    };
    const history = [question, call('t1'), result('t1', log), compaction, result('t2', log)];
    const second = await postMessages(
      JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 64, messages: history }),
      compacted,
    );
    // What precedes the compaction goes as the client wrote it; the re-read after it stands on its own.
    expect(second.json.messages[2].content[0].content).toBe(log);
    const afterCompaction = second.json.messages[4].content[0].content as string;
    expect(afterCompaction).not.toMatch(/same as/);
    expect(afterCompaction).toContain('ERROR nightly');
    expect(afterCompaction.length).toBeLessThan(log.length);
    // And from then on the prefix after the compaction is stable.
    const third = await postMessages(
      JSON.stringify({
        model: 'claude-opus-4-8',
        max_tokens: 64,
        messages: [...history, call('t3'), result('t3', buildLog(50, 'other'))],
      }),
      compacted,
    );
    expect(third.json.messages[4].content[0].content).toBe(afterCompaction);
    expect(third.json.messages[2].content[0].content).toBe(log);
  });

  it('Codex: exec_command outputs compressed, every other item byte for byte, opaque items untouched', async () => {
    const fixture = codexRequest();
    const body = structuredClone(fixture.json);
    const shellLog = buildLog(400, 'shell');
    body.input.push(
      { type: 'reasoning', id: 'rs_1', summary: [], content: null, encrypted_content: 'gAAAAB-opaque' },
      { type: 'shell_call', call_id: 'call_sh', action: { commands: ['make test'] }, status: 'completed' },
      {
        type: 'shell_call_output',
        call_id: 'call_sh',
        output: [{ stdout: shellLog, stderr: '', outcome: { type: 'exit', exit_code: 2 } }],
      },
      {
        type: 'apply_patch_call',
        call_id: 'call_ap',
        status: 'completed',
        operation: { type: 'delete_file', path: 'x' },
      },
      { type: 'apply_patch_call_output', call_id: 'call_ap', status: 'completed', output: 'Done' },
      { type: 'hologram_output', call_id: 'call_h', output: buildLog(300, 'unknown') },
    );
    upstream.script({ kind: 'responses', output: [{ type: 'message', text: 'done' }] });
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { ...OPENAI_HEADERS, 'x-distil-session': `codex-${++sessionNo}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const got = upstream.received.at(-1)!;
    const paths: (string | number)[][] = [];
    body.input.forEach((item: Json, i: number) => {
      if (item.type === 'function_call_output' && got.json.input[i].output !== item.output)
        paths.push(['input', i, 'output']);
    });
    const catIndex = body.input.findIndex(
      (item: Json) =>
        item.type === 'function_call_output' && item.output.includes('Original token count: 5851'),
    );
    expect(paths).toContainEqual(['input', catIndex, 'output']);
    const shellIndex = body.input.length - 4;
    const stdout = got.json.input[shellIndex].output[0].stdout as string;
    expect(stdout.length).toBeLessThan(shellLog.length / 2);
    expect(stdout).toContain('ERROR shell');
    paths.push(['input', shellIndex, 'output', 0, 'stdout']);
    onlyTheseChanged(body, got, paths);
  });

  it('Responses after a compaction item: what precedes it goes as it came, the compaction item untouched', async () => {
    const before = buildLog(300, 'early');
    const after = buildLog(300, 'late');
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'find the failing step' }] },
      { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"make"}' },
      { type: 'function_call_output', call_id: 'c1', output: before },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB-opaque-compaction' },
      { type: 'function_call', call_id: 'c2', name: 'exec_command', arguments: '{"cmd":"make again"}' },
      { type: 'function_call_output', call_id: 'c2', output: after },
    ];
    const body = { model: 'gpt-5.5', input, store: false, stream: false };
    upstream.script({ kind: 'responses', output: [{ type: 'message', text: 'done' }] });
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { ...OPENAI_HEADERS, 'x-distil-session': `compact-${++sessionNo}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const got = upstream.received.at(-1)!;
    expect(got.json.input[2].output).toBe(before);
    expect(got.json.input[5].output.length).toBeLessThan(after.length / 2);
    expect(got.json.input[5].output).toContain('ERROR late');
    onlyTheseChanged(body, got, [['input', 5, 'output']]);
  });

  it('Chat Completions: a tool message of text parts is compressed, system and developer text untouched', async () => {
    const output = buildLog(300, 'chat');
    const body = {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'developer', content: [{ type: 'text', text: 'Keep diffs small.' }] },
        { role: 'user', content: 'why is the build red?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'run', arguments: '{"cmd":"make"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: output }] },
      ],
    };
    upstream.script({ kind: 'openai', content: 'done' });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...OPENAI_HEADERS, 'x-distil-session': `chat-${++sessionNo}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const got = upstream.received.at(-1)!;
    expect(got.json.messages[4].content[0].text.length).toBeLessThan(output.length / 2);
    onlyTheseChanged(body, got, [['messages', 4, 'content', 0, 'text']]);
  });

  it('POST /v1/responses/compact goes upstream and back byte for byte', async () => {
    const fixture = codexRequest();
    const body = JSON.stringify({ model: fixture.json.model, input: fixture.json.input, instructions: '' });
    const compacted = {
      id: 'resp_compact_1',
      object: 'response.compaction',
      output: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB-opaque-compaction' }],
      usage: { input_tokens: 20_000, output_tokens: 900, total_tokens: 20_900 },
    };
    upstream.script({ kind: 'status', status: 200, body: compacted });
    const response = await fetch(`${proxy.url}/v1/responses/compact`, {
      method: 'POST',
      headers: OPENAI_HEADERS,
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(JSON.stringify(compacted));
    const got = upstream.received.at(-1)!;
    expect(got.path).toBe('/v1/responses/compact');
    expect(got.body).toBe(body);
  });
});
