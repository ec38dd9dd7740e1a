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

/** Default model of `--runner openai`. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** The parts of a Chat Completions answer a decision is read from. */
const ChatAnswer = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({
                type: z.literal('function'),
                function: z.object({ name: z.string(), arguments: z.string() }),
              }),
            )
            .nullable()
            .optional(),
        }),
      }),
    )
    .min(1, 'an answer needs at least one choice'),
});

/**
 * A runner for OpenAI-compatible Chat Completions APIs (`POST {base}/chat/completions`, bearer token), at
 * temperature 0, offering the trajectory's tools as functions with open parameter schemas. The first tool
 * call of the first choice is the decision (its JSON arguments parsed; arguments that are not a JSON
 * object are kept as `{ _raw }`); a choice without one is a final answer with its content.
 */
export class OpenAIRunner extends LiveRunner {
  readonly id: string;
  private readonly model: string;

  constructor(options: LiveRunnerOptions) {
    super(options, 'openai');
    this.model = options.model ?? DEFAULT_OPENAI_MODEL;
    this.id = `openai:${this.model}`;
  }

  protected request(transcript: Transcript, tools: ToolNames): WireRequest {
    const messages: { role: string; content: string }[] = [];
    if (transcript.system.length > 0) messages.push({ role: 'system', content: transcript.system });
    for (const m of transcript.messages) messages.push({ role: m.role, content: m.text });
    const body: Record<string, unknown> = {
      model: this.model,
      temperature: 0,
      max_tokens: this.options.maxTokens ?? 1024,
      messages,
    };
    if (tools.wire.size > 0) {
      body['tools'] = [...tools.wire].map(([original, name]) => ({
        type: 'function',
        function: {
          name,
          description: `The ${original} tool of the recorded run.`,
          parameters: { type: 'object', additionalProperties: true },
        },
      }));
    }
    return {
      url: endpoint(this.options.baseUrl ?? 'https://api.openai.com/v1', '/chat/completions'),
      headers: { authorization: `Bearer ${this.options.apiKey}` },
      body,
    };
  }

  protected decision(answer: unknown, tools: ToolNames): Decision {
    const parsed = ChatAnswer.safeParse(answer);
    if (!parsed.success) throw new ValidationError('openai answer', fieldIssues(parsed.error));
    const message = parsed.data.choices[0]!.message;
    const call = message.tool_calls?.[0];
    if (call)
      return {
        type: 'tool_call',
        tool: tools.back(call.function.name),
        arguments: parseArguments(call.function.arguments),
      };
    return { type: 'final', text: message.content ?? '' };
  }
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // not JSON: keep the text, so two identical malformed calls still compare equal
  }
  return { _raw: text };
}
