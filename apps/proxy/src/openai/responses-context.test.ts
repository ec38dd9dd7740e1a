import { describe, expect, it } from 'vitest';
import { codexRequest } from '../../test/wire-fixtures.js';
import { type ResponsesRequest, readResponsesRequest } from './responses-body.js';
import { responsesContext, responsesRootTexts } from './responses-context.js';
import { looksLikeResponsesBody } from './responses-shape.js';

const NONE: ReadonlySet<string> = new Set();

function request(input: unknown[]): ResponsesRequest {
  const read = readResponsesRequest({ model: 'gpt-5.5', input });
  if (!read) throw new Error('not a Responses request');
  return read;
}

describe('responsesContext on what Codex sends', () => {
  const fixture = codexRequest();

  it('reads the real body: every exec_command output, none of the developer messages', () => {
    expect(looksLikeResponsesBody(fixture.json)).toBe(true);
    const context = responsesContext(readResponsesRequest(fixture.json)!, NONE);
    expect(context.toolTexts).toHaveLength(4);
    expect(context.toolTexts.every((text) => text.tool === 'exec_command' && text.write)).toBe(true);
  });

  it('takes anchors from the user and the agent, not from developer messages or the environment context', () => {
    const trusted = responsesContext(readResponsesRequest(fixture.json)!, NONE).trustedTexts();
    expect(trusted[0]).toBe('Read the CI log small.log and tell me what failed');
    expect(trusted.slice(1)).toEqual(
      fixture.json.input
        .filter((item: { type: string }) => item.type === 'function_call')
        .map((item: { arguments: string }) => item.arguments),
    );
  });
});

describe('responsesContext on every item type', () => {
  const items = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'house rules' }] },
    { role: 'user', content: 'fix the build' },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' },
    { type: 'function_call', call_id: 'c1', name: 'run', arguments: '{"cmd":"make"}' },
    {
      type: 'function_call_output',
      call_id: 'c1',
      output: [
        { type: 'input_text', text: 'make output' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
      ],
    },
    { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'custom_tool_call_output', call_id: 'c2', output: 'patched' },
    { type: 'local_shell_call', id: 'ls_1', call_id: 'c3', action: { type: 'exec', command: ['ls', '-l'] } },
    { type: 'local_shell_call_output', id: 'c3', output: 'listing' },
    { type: 'shell_call', call_id: 'c4', action: { commands: ['pytest -q'] } },
    {
      type: 'shell_call_output',
      call_id: 'c4',
      output: [{ stdout: 'tests out', stderr: 'tests err', outcome: { type: 'exit', exit_code: 1 } }],
    },
    {
      type: 'apply_patch_call',
      call_id: 'c5',
      operation: { type: 'update_file', path: 'a.py', diff: '@@ -1 +1 @@' },
    },
    { type: 'apply_patch_call_output', call_id: 'c5', status: 'completed', output: 'applied' },
    { type: 'hologram_call_output', call_id: 'c6', output: 'unknown, not read' },
    { type: 'item_reference', id: 'msg_1' },
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Running the tests now.' }],
    },
  ];

  it('finds the text of each tool output type, and only those', () => {
    const context = responsesContext(request(items), NONE);
    expect(context.toolTexts.map((text) => [text.tool, text.text, text.path!.join('.')])).toEqual([
      ['run', 'make output', 'input.4.output.0.text'],
      ['apply_patch', 'patched', 'input.6.output'],
      ['local_shell', 'listing', 'input.8.output'],
      ['shell', 'tests out', 'input.10.output.0.stdout'],
      ['shell', 'tests err', 'input.10.output.0.stderr'],
      ['apply_patch', 'applied', 'input.12.output'],
    ]);
  });

  it('trusts user text, the agent’s own messages and every call’s input, not developer messages', () => {
    expect(responsesContext(request(items), NONE).trustedTexts()).toEqual([
      'fix the build',
      '{"cmd":"make"}',
      '*** Begin Patch',
      '["ls","-l"]',
      '["pytest -q"]',
      '@@ -1 +1 @@',
      'Running the tests now.',
    ]);
  });

  it('knows the input of the call behind each output, for the keep model', () => {
    const context = responsesContext(request(items), NONE);
    const calls = context.callInputs();
    expect(context.toolTexts.map((text) => calls.get(text.id!))).toEqual([
      '{"cmd":"make"}',
      '*** Begin Patch',
      '["ls","-l"]',
      '["pytest -q"]',
      '["pytest -q"]',
      '@@ -1 +1 @@',
    ]);
  });

  it('leaves out everything before the newest compaction item', () => {
    const compacted = [
      ...items.slice(0, 5),
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'ENC' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'now the docs' }] },
      { type: 'function_call', call_id: 'c9', name: 'run', arguments: '{"cmd":"make docs"}' },
      { type: 'function_call_output', call_id: 'c9', output: 'docs output' },
    ];
    const context = responsesContext(request(compacted), NONE);
    expect(context.toolTexts.map((text) => text.text)).toEqual(['docs output']);
    expect(context.trustedTexts()).toEqual(['now the docs', '{"cmd":"make docs"}']);
  });
});

describe('responsesRootTexts', () => {
  it('tells apart two Codex conversations started in one folder, and keeps one conversation together', () => {
    const { json } = codexRequest();
    const other = structuredClone(json);
    const prompt = other.input.findIndex(
      (item: { role?: string; content?: { text: string }[] }) =>
        item.role === 'user' && item.content?.[0]?.text.startsWith('Read the CI log'),
    );
    other.input[prompt].content[0].text = 'Rename the helper in calc.py';
    other.prompt_cache_key = 'another-thread';
    const later = structuredClone(json);
    later.input.push({ type: 'function_call_output', call_id: 'call_z', output: 'more' });
    const root = responsesRootTexts(readResponsesRequest(json)!);
    expect(root).toContain('Read the CI log small.log and tell me what failed');
    expect(responsesRootTexts(readResponsesRequest(later)!)).toEqual(root);
    expect(responsesRootTexts(readResponsesRequest(other)!)).not.toEqual(root);
    delete other.prompt_cache_key;
    delete json.prompt_cache_key;
    expect(responsesRootTexts(readResponsesRequest(other)!)).not.toEqual(
      responsesRootTexts(readResponsesRequest(json)!),
    );
  });
});
