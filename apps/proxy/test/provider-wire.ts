/**
 * The exact wire formats of the provider APIs, for the fake upstream: the JSON bodies and the SSE event
 * sequences the official SDKs expect (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses).
 */

/** A request as the fake upstream received it (what reply builders may look at). */
export interface WireRequest {
  // biome-ignore lint/suspicious/noExplicitAny: tests read provider JSON of many shapes by path
  readonly json: any;
}

/** One block of a scripted Anthropic reply. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string };

/** A scripted Anthropic Messages reply. */
export interface AnthropicReply {
  kind: 'anthropic';
  content: AnthropicBlock[];
  stopReason?: string;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  /** Streaming only: cut the connection after this many events (a broken upstream). */
  cutAfterEvents?: number;
  /** Streaming only: send an `error` event after this many events. */
  errorAfterEvents?: number;
}

/** A scripted Chat Completions reply. */
export interface OpenAIReply {
  kind: 'openai';
  content?: string | null;
  toolCalls?: { id: string; name: string; arguments: string }[];
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  cutAfterEvents?: number;
}

/** A scripted Responses reply. */
export interface ResponsesReply {
  kind: 'responses';
  output: (
    | { type: 'message'; text: string }
    | { type: 'function_call'; call_id: string; name: string; arguments: string }
  )[];
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number };
}

/** Splits a text into up to three pieces, as a model streams it. */
function pieces(text: string): string[] {
  if (text.length < 3) return text.length === 0 ? [] : [text];
  const a = Math.floor(text.length / 3);
  return [text.slice(0, a), text.slice(a, 2 * a), text.slice(2 * a)];
}

const named = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The non-streaming Anthropic message for a reply. */
export function anthropicMessage(reply: AnthropicReply, id: number, request: WireRequest) {
  const usage = reply.usage ?? { input_tokens: 100, output_tokens: 20 };
  return {
    id: `msg_${id}`,
    type: 'message' as const,
    role: 'assistant' as const,
    model: request.json?.model ?? 'claude-sonnet-4-6',
    content: reply.content.map((block) => (block.type === 'text' ? { ...block, citations: null } : block)),
    stop_reason:
      reply.stopReason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  };
}

/**
 * The Anthropic event stream for a reply: message_start, then per block content_block_start, its deltas
 * (text, input_json, thinking + signature) and content_block_stop (a ping after the first start),
 * message_delta with stop_reason and usage, message_stop.
 */
export function anthropicEvents(reply: AnthropicReply, id: number, request: WireRequest): string[] {
  const events: string[] = [];
  const event = (name: string, data: unknown) => events.push(named(name, data));
  const message = anthropicMessage(reply, id, request);
  event('message_start', {
    type: 'message_start',
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  });
  reply.content.forEach((block, index) => {
    const delta = (d: unknown) =>
      event('content_block_delta', { type: 'content_block_delta', index, delta: d });
    if (block.type === 'text') {
      event('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      if (index === 0) event('ping', { type: 'ping' });
      for (const text of pieces(block.text)) delta({ type: 'text_delta', text });
    } else if (block.type === 'thinking') {
      const start = { type: 'thinking', thinking: '', signature: '' };
      event('content_block_start', { type: 'content_block_start', index, content_block: start });
      for (const thinking of pieces(block.thinking)) delta({ type: 'thinking_delta', thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      event('content_block_start', { type: 'content_block_start', index, content_block: start });
      for (const partial_json of pieces(JSON.stringify(block.input)))
        delta({ type: 'input_json_delta', partial_json });
    }
    event('content_block_stop', { type: 'content_block_stop', index });
  });
  event('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  event('message_stop', { type: 'message_stop' });
  return events;
}

/** The Anthropic `error` event. */
export function anthropicErrorEvent(message: string): string {
  return named('error', { type: 'error', error: { type: 'overloaded_error', message } });
}

function finishOf(reply: OpenAIReply): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

function openaiUsage(reply: OpenAIReply) {
  const usage = reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };
}

/** The non-streaming Chat Completions response for a reply. */
export function openaiCompletion(reply: OpenAIReply, id: number, request: WireRequest) {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 1_700_000_000 + id,
    model: request.json?.model ?? 'gpt-4o',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          refusal: null,
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: finishOf(reply),
      },
    ],
    usage: openaiUsage(reply),
  };
}

/**
 * The Chat Completions chunk stream for a reply: a role chunk, content deltas, per tool call a chunk with
 * its id and name then argument pieces, a final chunk with finish_reason, a usage chunk when
 * `stream_options.include_usage` asked for one. `[DONE]` is written by the server.
 */
export function openaiChunks(reply: OpenAIReply, id: number, request: WireRequest): string[] {
  const base = {
    id: `chatcmpl-${id}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + id,
    model: request.json.model,
  };
  const withUsage = request.json?.stream_options?.include_usage === true;
  const chunks: unknown[] = [];
  const chunk = (delta: unknown, finish: string | null = null) =>
    chunks.push({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(withUsage && { usage: null }),
    });
  chunk({ role: 'assistant', content: '', refusal: null });
  for (const content of pieces(reply.content ?? '')) chunk({ content });
  (reply.toolCalls ?? []).forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const args of pieces(call.arguments))
      chunk({ tool_calls: [{ index, function: { arguments: args } }] });
  });
  chunk({}, finishOf(reply));
  if (withUsage) chunks.push({ ...base, choices: [], usage: openaiUsage(reply) });
  return chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`);
}

/** The Responses API object for a reply. */
export function responseObject(reply: ResponsesReply, id: number, request: WireRequest) {
  const usage = reply.usage ?? { input_tokens: 100, output_tokens: 20 };
  const output = reply.output.map((item, i) =>
    item.type === 'message'
      ? {
          id: `msg_${id}_${i}`,
          type: 'message' as const,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: item.text, annotations: [] as unknown[] }],
        }
      : {
          id: `fc_${id}_${i}`,
          type: 'function_call' as const,
          status: 'completed',
          call_id: item.call_id,
          name: item.name,
          arguments: item.arguments,
        },
  );
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: 1_700_000_000 + id,
    status: 'completed',
    model: request.json?.model ?? 'gpt-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

/**
 * The Responses event stream for a reply: response.created, response.in_progress, per output item
 * output_item.added, its content part or argument deltas and their .done events, output_item.done, then
 * response.completed — every event with its sequence_number.
 */
export function responsesEvents(reply: ResponsesReply, id: number, request: WireRequest): string[] {
  const final = responseObject(reply, id, request);
  const opening = { ...final, status: 'in_progress', output: [], usage: null };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: opening },
    { type: 'response.in_progress', response: opening },
  ];
  final.output.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = item.content[0]!.text;
      const part = { type: 'output_text', text: '', annotations: [] };
      const at = { item_id: item.id, output_index, content_index: 0 };
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      events.push({ type: 'response.content_part.added', ...at, part });
      for (const delta of pieces(text))
        events.push({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
      events.push({ type: 'response.output_text.done', ...at, text, logprobs: [] });
      events.push({ type: 'response.content_part.done', ...at, part: { ...part, text } });
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of pieces(item.arguments)) {
        events.push({
          type: 'response.function_call_arguments.delta',
          item_id: item.id,
          output_index,
          delta,
        });
      }
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      });
    }
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: final });
  return events.map((event, sequence_number) => named(String(event.type), { ...event, sequence_number }));
}
