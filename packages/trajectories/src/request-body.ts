import { parseOrThrow, type Trajectory } from '@distil/contract';
import { z } from 'zod';
import { AnthropicContent, AnthropicConversation } from './anthropic-content.js';
import { MessageText, textOf } from './message-content.js';
import { TurnBuilder, toolCallDecision } from './turn-builder.js';

/** An Anthropic Messages request body (the fields that make up the context). */
const AnthropicBody = z
  .object({
    model: z.string().optional(),
    system: z
      .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose())])
      .optional(),
    tools: z.array(z.unknown()).optional(),
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: AnthropicContent }).loose())
      .min(1),
  })
  .loose();

const OpenAIToolCall = z
  .object({
    id: z.string().optional(),
    function: z.object({ name: z.string().min(1), arguments: z.unknown() }).loose(),
  })
  .loose();

/** An OpenAI Chat Completions request body. */
const OpenAIBody = z
  .object({
    model: z.string().optional(),
    tools: z.array(z.unknown()).optional(),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
            content: MessageText.optional(),
            tool_calls: z.array(OpenAIToolCall).nullish(),
            tool_call_id: z.string().nullish(),
            name: z.string().nullish(),
          })
          .loose(),
      )
      .min(1),
  })
  .loose();

/** Which request API a body with `messages` belongs to: OpenAI when it uses OpenAI-only shapes. */
export function requestBodyFlavour(json: unknown): 'anthropic' | 'openai' | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const messages = (json as Record<string, unknown>)['messages'];
  if (!Array.isArray(messages)) return null;
  const openAIOnly = messages.some(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      (['system', 'developer', 'tool', 'function'].includes(String((m as Record<string, unknown>)['role'])) ||
        'tool_calls' in m),
  );
  return openAIOnly ? 'openai' : 'anthropic';
}

/**
 * Imports an Anthropic Messages request body. One request holds a whole conversation: each assistant
 * message is the decision that closed a turn, and what follows the last one is the pending request.
 */
export function importAnthropicBody(json: unknown, id: string): Trajectory {
  const body = parseOrThrow(AnthropicBody, json, `Anthropic Messages body ${id}`);
  const builder = new TurnBuilder();
  addTools(builder, body.tools);
  const system = typeof body.system === 'string' ? body.system : textOf(body.system);
  builder.add({ role: 'system', text: system });
  const conversation = new AnthropicConversation(builder);
  for (const message of body.messages) {
    if (message.role === 'user') conversation.user(message.content);
    else conversation.assistant(message.content);
  }
  return builder.build(id, 'anthropic-messages', true);
}

/** Imports an OpenAI Chat Completions request body, turn by turn as for Anthropic bodies. */
export function importOpenAIBody(json: unknown, id: string): Trajectory {
  const body = parseOrThrow(OpenAIBody, json, `OpenAI Chat Completions body ${id}`);
  const builder = new TurnBuilder();
  addTools(builder, body.tools);
  const toolNames = new Map<string, string>();
  for (const message of body.messages) {
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') builder.add({ role: 'system', text });
    else if (message.role === 'user') builder.add({ role: 'user', text });
    else if (message.role === 'tool' || message.role === 'function') {
      const tool = message.name ?? (message.tool_call_id ? toolNames.get(message.tool_call_id) : undefined);
      builder.add({ role: 'tool', text, tool: tool ?? undefined });
    } else {
      const calls = message.tool_calls ?? [];
      for (const call of calls) if (call.id) toolNames.set(call.id, call.function.name);
      const first = calls[0];
      builder.decide(
        first ? toolCallDecision(first.function.name, first.function.arguments) : { type: 'final', text },
      );
      const rendered = calls.map((c) => `${c.function.name}(${argumentsText(c.function.arguments)})`);
      builder.add({ role: 'assistant', text: [text, ...rendered].filter((t) => t.length > 0).join('\n') });
    }
  }
  return builder.build(id, 'openai-chat', true);
}

/** Tool definitions come first in a request (before the system prompt), so they open the cached prefix. */
function addTools(builder: TurnBuilder, tools: readonly unknown[] | undefined): void {
  if (!tools || tools.length === 0) return;
  builder.add({ role: 'system', kind: 'schema', text: JSON.stringify(tools) });
}

function argumentsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}
