import type { Decision } from '@distil/contract';
import { decisionKey } from '@distil/replay';
import { SseParser } from '../../http/sse.js';

/**
 * What a reply decided: the tool calls it made, in order, or — when it made none — its final text as one
 * `final` decision. Several calls in one reply are one decision for comparison purposes.
 */
export type ReplyDecision = readonly Decision[];

/** How two decisions differ; a content-free label that is all a divergence record keeps. */
export type DivergenceClass =
  | 'call_vs_answer'
  | 'answer_text'
  | 'call_count'
  | 'tool_name'
  | 'tool_arguments';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes is read by path and checked
type Json = any;

/** Tool-call arguments as an object: the JSON they encode, or the raw text when it is not JSON. */
function argumentsOf(value: unknown): Record<string, unknown> {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      return { _unparsed: value };
    }
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
    return parsed as Record<string, unknown>;
  return { _value: parsed };
}

function decisionOf(calls: Decision[], text: string): ReplyDecision {
  return calls.length > 0 ? calls : [{ type: 'final', text }];
}

const call = (tool: unknown, args: unknown): Decision => ({
  type: 'tool_call',
  tool: typeof tool === 'string' && tool.length > 0 ? tool : '(unnamed)',
  arguments: argumentsOf(args),
});

function anthropicJson(message: Json): ReplyDecision | null {
  if (!Array.isArray(message?.content)) return null;
  const calls: Decision[] = [];
  let text = '';
  for (const part of message.content) {
    if (part?.type === 'tool_use') calls.push(call(part.name, part.input ?? {}));
    else if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return decisionOf(calls, text);
}

function anthropicStream(events: readonly Json[]): ReplyDecision | null {
  const blocks = new Map<number, { type: string; name?: string; text: string }>();
  let stopped = false;
  for (const e of events) {
    if (e?.type === 'error') return null;
    if (e?.type === 'message_stop') stopped = true;
    if (e?.type === 'content_block_start' && typeof e.index === 'number') {
      const b = e.content_block ?? {};
      blocks.set(e.index, {
        type: String(b.type),
        name: b.name,
        text: typeof b.text === 'string' ? b.text : '',
      });
    } else if (e?.type === 'content_block_delta' && typeof e.index === 'number') {
      const block = blocks.get(e.index);
      if (!block) continue;
      if (e.delta?.type === 'text_delta') block.text += String(e.delta.text ?? '');
      else if (e.delta?.type === 'input_json_delta') block.text += String(e.delta.partial_json ?? '');
    }
  }
  if (!stopped) return null;
  const ordered = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, block]) => block);
  const calls = ordered.filter((b) => b.type === 'tool_use').map((b) => call(b.name, b.text));
  const text = ordered
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
  return decisionOf(calls, text);
}

function chatJson(completion: Json): ReplyDecision | null {
  const message = completion?.choices?.[0]?.message;
  if (!message) return null;
  const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((c: Json) =>
    call(c?.function?.name, c?.function?.arguments),
  );
  return decisionOf(calls, typeof message.content === 'string' ? message.content : '');
}

function chatStream(chunks: readonly Json[]): ReplyDecision | null {
  const tools = new Map<number, { name: string; args: string }>();
  let text = '';
  let finished = false;
  for (const chunk of chunks) {
    const choice = (chunk?.choices ?? []).find((c: Json) => (c?.index ?? 0) === 0);
    if (!choice) continue;
    if (choice.finish_reason) finished = true;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string') text += delta.content;
    for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const index = typeof t?.index === 'number' ? t.index : 0;
      const tool = tools.get(index) ?? { name: '', args: '' };
      if (typeof t?.function?.name === 'string') tool.name += t.function.name;
      if (typeof t?.function?.arguments === 'string') tool.args += t.function.arguments;
      tools.set(index, tool);
    }
  }
  if (!finished) return null;
  const calls = [...tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => call(t.name, t.args));
  return decisionOf(calls, text);
}

function responsesJson(response: Json): ReplyDecision | null {
  if (!Array.isArray(response?.output)) return null;
  const calls: Decision[] = [];
  let text = '';
  for (const item of response.output) {
    if (item?.type === 'function_call') calls.push(call(item.name, item.arguments));
    else if (item?.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (part?.type === 'output_text') text += String(part.text ?? '');
    }
  }
  return decisionOf(calls, text);
}

function responsesStream(events: readonly Json[]): ReplyDecision | null {
  const completed = events.find((e) => e?.type === 'response.completed');
  return completed ? responsesJson(completed.response) : null;
}

/** How to read a decision out of a reply, per provider route: whole JSON, or its event stream. */
interface ReplyReader {
  readonly json: (body: Json) => ReplyDecision | null;
  readonly stream: (events: readonly Json[]) => ReplyDecision | null;
}

/** The routes shadow mode can compare, and how to read each one's replies. */
export const REPLY_READERS: Readonly<Record<string, ReplyReader>> = Object.freeze({
  'POST /v1/messages': { json: anthropicJson, stream: anthropicStream },
  'POST /v1/chat/completions': { json: chatJson, stream: chatStream },
  'POST /v1/responses': { json: responsesJson, stream: responsesStream },
});

/**
 * The decision in a reply body of `route`: a JSON body, or a server-sent event stream (every `data:`
 * payload parsed; `[DONE]` and keep-alives skipped). Null when the body is neither, or a stream ended
 * without its final event (a cut or failed stream decided nothing).
 */
export function readReplyDecision(route: string, body: Buffer): ReplyDecision | null {
  const reader = REPLY_READERS[route];
  if (!reader) return null;
  const text = body.toString('utf8');
  const start = text.trimStart();
  try {
    if (start.startsWith('{')) return reader.json(JSON.parse(start));
    const parser = new SseParser();
    const events = [...parser.push(body), ...parser.end()]
      .filter((e) => e.data !== '' && e.data !== '[DONE]')
      .map((e) => JSON.parse(e.data) as Json);
    return events.length > 0 ? reader.stream(events) : null;
  } catch {
    return null;
  }
}

/** How two decisions differ, or null when they are the same (tool + normalised arguments, or text). */
export function divergence(a: ReplyDecision, b: ReplyDecision): DivergenceClass | null {
  const keys = (d: ReplyDecision): string => JSON.stringify(d.map(decisionKey));
  if (keys(a) === keys(b)) return null;
  const aCalls = a.filter((d) => d.type === 'tool_call');
  const bCalls = b.filter((d) => d.type === 'tool_call');
  if (aCalls.length === 0 && bCalls.length === 0) return 'answer_text';
  if (aCalls.length === 0 || bCalls.length === 0) return 'call_vs_answer';
  if (aCalls.length !== bCalls.length) return 'call_count';
  const names = (calls: Decision[]): string =>
    calls.map((c) => (c.type === 'tool_call' ? c.tool : '')).join('\n');
  return names(aCalls) === names(bCalls) ? 'tool_arguments' : 'tool_name';
}
