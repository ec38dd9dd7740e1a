import { type Decision, fieldIssues, ValidationError } from '@distil/contract';
import { z } from 'zod';
import {
  endpoint,
  LiveRunner,
  type LiveRunnerOptions,
  type ToolNames,
  type WireRequest,
} from './live-runner.js';
import type { Transcript } from './transcript.js';

/** Default model of `--runner anthropic`. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
/** The Messages API version header this runner speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The parts of a Messages API answer a decision is read from; other content types are ignored. */
const MessagesAnswer = z.object({
  type: z.literal('message'),
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('tool_use'), name: z.string(), input: z.record(z.string(), z.unknown()) }),
      z.object({ type: z.string() }),
    ]),
  ),
  stop_reason: z.string().nullable(),
});

/**
 * A runner that asks a Claude model through the Anthropic Messages API (`POST /v1/messages`, headers
 * `x-api-key` and `anthropic-version`), at temperature 0, offering the trajectory's tools with open input
 * schemas. The first `tool_use` block of the answer is the decision; an answer without one is a final
 * answer made of its text blocks.
 */
export class AnthropicRunner extends LiveRunner {
  readonly id: string;
  private readonly model: string;

  constructor(options: LiveRunnerOptions) {
    super(options, 'anthropic');
    this.model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
    this.id = `anthropic:${this.model}`;
  }

  protected request(transcript: Transcript, tools: ToolNames): WireRequest {
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: this.options.maxTokens ?? 1024,
      temperature: 0,
      messages: transcript.messages.map((m) => ({ role: m.role, content: m.text })),
    };
    if (transcript.system.length > 0) body['system'] = transcript.system;
    if (tools.wire.size > 0) {
      body['tools'] = [...tools.wire].map(([original, name]) => ({
        name,
        description: `The ${original} tool of the recorded run.`,
        input_schema: { type: 'object', additionalProperties: true },
      }));
    }
    return {
      url: endpoint(this.options.baseUrl ?? 'https://api.anthropic.com', '/v1/messages'),
      headers: { 'x-api-key': this.options.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      body,
    };
  }

  protected decision(answer: unknown, tools: ToolNames): Decision {
    const parsed = MessagesAnswer.safeParse(answer);
    if (!parsed.success) throw new ValidationError('anthropic answer', fieldIssues(parsed.error));
    const content = parsed.data.content;
    for (const part of content) {
      if (part.type === 'tool_use' && 'name' in part) {
        return { type: 'tool_call', tool: tools.back(part.name), arguments: part.input };
      }
    }
    const text = content
      .flatMap((part) => (part.type === 'text' && 'text' in part ? [part.text] : []))
      .join('');
    return { type: 'final', text };
  }
}
