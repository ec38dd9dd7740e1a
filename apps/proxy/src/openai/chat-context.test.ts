import { describe, expect, it } from 'vitest';
import { readChatRequest } from './chat-body.js';
import { chatContext } from './chat-context.js';

describe('chatContext', () => {
  const body = readChatRequest({
    model: 'gpt-4.1',
    messages: [
      { role: 'system', content: 'You are a coding agent. Prefer small diffs.' },
      { role: 'developer', content: [{ type: 'text', text: 'Use the repository conventions.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<environment_context>\n  <cwd>/work</cwd>\n</environment_context>' },
          { type: 'text', text: 'why is test_login failing?' },
        ],
      },
      {
        role: 'assistant',
        content: 'Running the tests.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'run', arguments: '{"cmd":"pytest"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'pytest output' },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'more output' }] },
      { role: 'critic', content: 'a role the proxy does not know' },
    ],
  })!;

  it('reads tool messages as a string or text parts', () => {
    const context = chatContext(body, new Set());
    expect(context.toolTexts.map((text) => [text.tool, text.text, text.path!.join('.')])).toEqual([
      ['run', 'pytest output', 'messages.4.content'],
      ['run', 'more output', 'messages.5.content.0.text'],
    ]);
  });

  it('trusts what the user asked and what the agent did, not system or developer text', () => {
    expect(chatContext(body, new Set()).trustedTexts()).toEqual([
      'why is test_login failing?',
      'Running the tests.',
      '{"cmd":"pytest"}',
    ]);
  });

  it('knows the arguments of the call behind each tool message, for the keep model', () => {
    const context = chatContext(body, new Set());
    expect(context.toolTexts.map((text) => context.callInputs().get(text.id!))).toEqual([
      '{"cmd":"pytest"}',
      '{"cmd":"pytest"}',
    ]);
  });
});
