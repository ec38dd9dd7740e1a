import type { Decision } from '@distil/contract';
import { z } from 'zod';
import type { TurnBuilder } from './turn-builder.js';

/** Result content of a tool_result part: a string or a list of parts (text read, images skipped). */
const ToolResultContent = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
]);

const READ_PARTS = new Set(['text', 'tool_use', 'tool_result']);

/**
 * One content part of an Anthropic Messages message. Text, tool_use and tool_result are validated; any
 * other part (thinking, images, documents, server tools) passes as opaque: it is not context text.
 */
export const AnthropicPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z
    .object({ type: z.literal('tool_use'), id: z.string(), name: z.string().min(1), input: z.unknown() })
    .loose(),
  z
    .object({
      type: z.literal('tool_result'),
      tool_use_id: z.string(),
      content: ToolResultContent.optional(),
      is_error: z.boolean().optional(),
    })
    .loose(),
  z
    .object({
      type: z.string().refine((type) => !READ_PARTS.has(type), { message: 'malformed text/tool part' }),
    })
    .loose(),
]);
export type AnthropicPart = z.infer<typeof AnthropicPart>;

/** The parts Distil reads, after validation (the opaque fallback cannot narrow by `type` alone). */
type ReadPart =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: z.infer<typeof ToolResultContent> };

function readPart(part: AnthropicPart): ReadPart | null {
  return READ_PARTS.has(part.type) ? (part as ReadPart) : null;
}

/** Anthropic message content: a string or a list of parts. */
export const AnthropicContent = z.union([z.string(), z.array(AnthropicPart)]);
export type AnthropicContent = z.infer<typeof AnthropicContent>;

/**
 * Reads Anthropic-shaped messages into turns: an assistant message is a decision (its first tool_use, else
 * its text as a final answer) and then context; user text is trusted; tool results are untrusted and
 * carry the name of the tool that produced them. Thinking parts are not context for later turns.
 */
export class AnthropicConversation {
  private readonly toolNames = new Map<string, string>();

  constructor(private readonly builder: TurnBuilder) {}

  /** Adds one user message. */
  user(content: AnthropicContent): void {
    if (typeof content === 'string') {
      this.builder.add({ role: 'user', text: content });
      return;
    }
    for (const given of content) {
      const part = readPart(given);
      if (part === null) continue;
      if (part.type === 'text') this.builder.add({ role: 'user', text: part.text });
      else if (part.type === 'tool_result') {
        const text = toolResultText(part.content);
        this.builder.add({ role: 'tool', text, tool: this.toolNames.get(part.tool_use_id) });
      }
    }
  }

  /** Adds one assistant message: closes the turn with its decision, then records it as context. */
  assistant(content: AnthropicContent): void {
    const parts: ReadPart[] =
      typeof content === 'string'
        ? [{ type: 'text', text: content }]
        : content.map(readPart).filter((part): part is ReadPart => part !== null);
    const texts: string[] = [];
    let decision: Decision | null = null;
    for (const part of parts) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'tool_use') {
        this.toolNames.set(part.id, part.name);
        const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
        decision ??= { type: 'tool_call', tool: part.name, arguments: input as Record<string, unknown> };
        texts.push(`${part.name}(${JSON.stringify(part.input ?? {})})`);
      }
    }
    const text = texts.join('\n');
    this.builder.decide(decision ?? { type: 'final', text });
    this.builder.add({ role: 'assistant', text });
  }
}

function toolResultText(content: z.infer<typeof ToolResultContent> | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}
