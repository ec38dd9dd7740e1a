import { z } from 'zod';

/** One entry of a Responses request's `input`, as far as the fake upstream reads it; the rest is kept. */
export const InputItem = z.looseObject({ type: z.string().optional(), role: z.string().optional() });
export type InputItem = z.infer<typeof InputItem>;

/** The parts of an OpenAI Responses request body (POST /v1/responses) the fake upstream needs. */
export const ResponsesRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(InputItem)]),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({})).optional(),
  prompt_cache_key: z.string().optional(),
  stream: z.boolean().optional(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

/** `input` as items: a bare string is one user message. */
export function itemsOf(input: ResponsesRequest['input']): InputItem[] {
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** The text of a message item's content (string, or input/output text parts joined). */
export function messageText(item: InputItem): string {
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? (p.text as string) : ''))
    .join('\n');
}

/** The output text of a tool-output item (function_call_output, custom_tool_call_output, …). */
export function toolOutputText(item: InputItem): string {
  const output = (item as { output?: unknown }).output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output
      .map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? (p.text as string) : ''))
      .join('\n');
  }
  if (output && typeof output === 'object' && typeof (output as { output?: unknown }).output === 'string') {
    // local_shell_call_output and older shapes nest the text one level down
    return (output as { output: string }).output;
  }
  return '';
}
