import { describe, expect, it } from 'vitest';
import { claudeCodeRequest } from '../../test/wire-fixtures.js';
import { type MessagesRequest, readMessagesRequest } from './messages-body.js';
import { messagesContext } from './messages-context.js';

const NONE: ReadonlySet<string> = new Set();

/** The paths of a request's rewritable texts, joined for reading. */
function writablePaths(request: MessagesRequest): string[] {
  return messagesContext(request, NONE)
    .toolTexts.filter((text) => text.write)
    .map((text) => text.path!.join('.'));
}

function request(messages: unknown[]): MessagesRequest {
  const read = readMessagesRequest({ model: 'claude-opus-4-8', max_tokens: 10, messages });
  if (!read) throw new Error('not a Messages request');
  return read;
}

describe('messagesContext on what Claude Code sends', () => {
  const fixture = claudeCodeRequest();
  const read = readMessagesRequest(fixture.json)!;

  it('reads the real body, mid-conversation system message and all', () => {
    expect(read).not.toBeNull();
    expect(fixture.json.messages.some((m: { role: string }) => m.role === 'system')).toBe(true);
    const context = messagesContext(read, NONE);
    expect(context.toolTexts.map((text) => text.tool)).toEqual([
      'Bash',
      'Read',
      'Edit',
      'Read',
      'Bash',
      'Grep',
    ]);
    expect(context.toolTexts.every((text) => text.write !== undefined)).toBe(true);
  });

  it('takes anchors from the user and the agent, not from the system prompt, system messages or tools', () => {
    const trusted = messagesContext(read, NONE).trustedTexts();
    const all = trusted.join('\n');
    expect(trusted[0]).toBe(fixture.json.messages[0].content[1].text);
    expect(all).toContain('"command":"cat small.log"');
    const systemMessage = fixture.json.messages.find((m: { role: string }) => m.role === 'system').content;
    const systemPrompt = fixture.json.system.map((part: { text: string }) => part.text).join('\n');
    for (const foreign of [systemMessage, systemPrompt, JSON.stringify(fixture.json.tools)]) {
      const sample = (foreign as string).slice(0, 200);
      expect(all.includes(sample)).toBe(false);
    }
    expect(all).not.toContain('system-reminder');
    expect(all).not.toContain('currentDate');
  });
});

describe('messagesContext on every part shape', () => {
  it('reads a tool result that mixes text, image, document and search_result parts', () => {
    const body = request([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'fetch', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'log text' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc text' } },
              {
                type: 'document',
                source: { type: 'text', media_type: 'text/plain', data: 'cited doc' },
                citations: { enabled: true },
              },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
              { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk' }] } },
              {
                type: 'search_result',
                source: 'https://example.test/a',
                title: 'A',
                content: [{ type: 'text', text: 'result text' }],
              },
              {
                type: 'search_result',
                source: 'https://example.test/b',
                title: 'B',
                content: [{ type: 'text', text: 'cited result' }],
                citations: { enabled: true },
              },
              { type: 'tool_reference', tool_name: 'x' },
            ],
          },
        ],
      },
    ]);
    const context = messagesContext(body, NONE);
    expect(context.toolTexts.map((text) => text.text)).toEqual([
      'log text',
      'doc text',
      'chunk',
      'result text',
    ]);
    expect(context.toolTexts.every((text) => text.tool === 'fetch')).toBe(true);
    expect(writablePaths(body)).toEqual([
      'messages.2.content.0.content.0.text',
      'messages.2.content.0.content.2.source.data',
      'messages.2.content.0.content.5.source.content.0.text',
      'messages.2.content.0.content.6.content.0.text',
    ]);
  });

  it('reads MCP and server tool results in assistant messages, never web search results', () => {
    const body = request([
      { role: 'user', content: 'look it up' },
      {
        role: 'assistant',
        content: [
          { type: 'mcp_tool_use', id: 'm1', name: 'query', server_name: 'db', input: { sql: 'select 1' } },
          {
            type: 'mcp_tool_result',
            tool_use_id: 'm1',
            is_error: false,
            content: [{ type: 'text', text: 'rows' }],
          },
          { type: 'server_tool_use', id: 's1', name: 'web_fetch', input: { url: 'https://example.test' } },
          {
            type: 'web_fetch_tool_result',
            tool_use_id: 's1',
            content: {
              type: 'web_fetch_result',
              url: 'https://example.test',
              content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'page' } },
            },
          },
          { type: 'server_tool_use', id: 's2', name: 'bash_code_execution', input: { command: 'ls' } },
          {
            type: 'bash_code_execution_tool_result',
            tool_use_id: 's2',
            content: {
              type: 'bash_code_execution_result',
              stdout: 'out',
              stderr: 'err',
              return_code: 0,
              content: [],
            },
          },
          {
            type: 'server_tool_use',
            id: 's3',
            name: 'text_editor_code_execution',
            input: { command: 'view' },
          },
          {
            type: 'text_editor_code_execution_tool_result',
            tool_use_id: 's3',
            content: { type: 'text_editor_code_execution_view_result', content: 'file', file_type: 'text' },
          },
          { type: 'server_tool_use', id: 's4', name: 'web_search', input: { query: 'q' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 's4',
            content: [{ type: 'web_search_result', url: 'u', title: 't', encrypted_content: 'ENC' }],
          },
        ],
      },
    ]);
    const context = messagesContext(body, NONE);
    expect(context.toolTexts.map((text) => [text.tool, text.text])).toEqual([
      ['query', 'rows'],
      ['web_fetch', 'page'],
      ['bash_code_execution', 'out'],
      ['bash_code_execution', 'err'],
      ['text_editor_code_execution', 'file'],
    ]);
    expect(writablePaths(body)).toEqual([
      'messages.1.content.1.content.0.text',
      'messages.1.content.3.content.content.source.data',
      'messages.1.content.5.content.stdout',
      'messages.1.content.5.content.stderr',
      'messages.1.content.7.content.content',
    ]);
    expect(context.trustedTexts()).toContain('{"sql":"select 1"}');
  });

  it('reads top-level documents and search results in user messages, and nothing in unknown roles or parts', () => {
    const body = request([
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'attached' } },
          { type: 'search_result', source: 's', title: 't', content: [{ type: 'text', text: 'found' }] },
          { type: 'hologram', content: 'not read' },
          { type: 'text', text: 'summarise these' },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'be terse' }] },
      { role: 'narrator', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'not read either' }] },
    ]);
    const context = messagesContext(body, NONE);
    expect(context.toolTexts.map((text) => text.text)).toEqual(['attached', 'found']);
    expect(context.trustedTexts()).toEqual(['summarise these']);
  });

  it('leaves out everything before the last compaction block, and keeps its summary as an anchor source', () => {
    const result = (id: string, text: string) => ({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: text }],
    });
    const call = (id: string) => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'bash', input: { cmd: id } }],
    });
    const body = request([
      { role: 'user', content: 'first question' },
      call('t1'),
      result('t1', 'dropped by the provider'),
      {
        role: 'assistant',
        content: [
          { type: 'compaction', content: null },
          { type: 'compaction', content: 'Summary: the build fails in module_7.' },
          { type: 'tool_use', id: 't2', name: 'bash', input: { cmd: 't2' } },
        ],
      },
      result('t2', 'after the compaction'),
    ]);
    const context = messagesContext(body, NONE);
    expect(context.toolTexts.map((text) => text.text)).toEqual(['after the compaction']);
    expect(context.toolTexts[0]!.tool).toBe('bash');
    expect(context.trustedTexts()).toEqual(['Summary: the build fails in module_7.', '{"cmd":"t2"}']);
  });

  it('a failed compaction (no summary, no state) drops nothing', () => {
    const body = request([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: [
          { type: 'compaction', content: null },
          { type: 'tool_use', id: 'a', name: 'b', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'kept' }] },
    ]);
    expect(messagesContext(body, NONE).trustedTexts()).toEqual(['q', '{}']);
    expect(messagesContext(body, NONE).toolTexts).toHaveLength(1);
  });
});
