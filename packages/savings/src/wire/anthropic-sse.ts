import type { ServerResponse } from 'node:http';
import { callsOf, type ReplyEnvelope, type ScriptedReply } from './scripted-reply.js';

/** Usage as Anthropic reports it: `input_tokens` excludes the cache buckets. */
export interface AnthropicUsageReport {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation: {
    readonly ephemeral_5m_input_tokens: number;
    readonly ephemeral_1h_input_tokens: number;
  };
  readonly output_tokens: number;
}

/** The tool_use blocks of a call reply (several when the model calls tools in parallel). */
function toolUses(
  reply: Exclude<ScriptedReply, { kind: 'final' }>,
  envelope: ReplyEnvelope,
): { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }[] {
  const id = `toolu_fake${envelope.serial}`;
  if (reply.kind === 'custom_tool')
    return [{ type: 'tool_use', id, name: reply.name, input: { input: reply.input } }];
  return callsOf(reply).map((call, i) => ({
    type: 'tool_use',
    id: i === 0 ? id : `${id}_${i}`,
    name: call.name,
    input: call.input,
  }));
}

function send(res: ServerResponse, event: string, data: object): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

/**
 * Streams one Messages reply with the event sequence the API sends (message_start, per block
 * content_block_start / deltas / content_block_stop, message_delta with stop_reason and usage,
 * message_stop): a signed thinking block, then the tool_use blocks (one per parallel call) or a text block.
 */
export function streamMessagesReply(
  res: ServerResponse,
  model: string,
  reply: ScriptedReply,
  envelope: ReplyEnvelope,
  usage: AnthropicUsageReport,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const { output_tokens, ...input } = usage;
  send(res, 'message_start', {
    message: {
      id: `msg_fake${envelope.serial}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...input, output_tokens: 1 },
    },
  });
  send(res, 'content_block_start', {
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  });
  send(res, 'content_block_delta', {
    index: 0,
    delta: { type: 'thinking_delta', thinking: envelope.thought },
  });
  send(res, 'content_block_delta', {
    index: 0,
    delta: {
      type: 'signature_delta',
      signature: Buffer.from(`sig:${envelope.serial}:${envelope.thought}`).toString('base64'),
    },
  });
  send(res, 'content_block_stop', { index: 0 });
  if (reply.kind === 'final') {
    send(res, 'content_block_start', { index: 1, content_block: { type: 'text', text: '' } });
    send(res, 'content_block_delta', { index: 1, delta: { type: 'text_delta', text: reply.text } });
    send(res, 'content_block_stop', { index: 1 });
  } else {
    toolUses(reply, envelope).forEach((block, i) => {
      const index = i + 1;
      send(res, 'content_block_start', { index, content_block: { ...block, input: {} } });
      send(res, 'content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
      send(res, 'content_block_stop', { index });
    });
  }
  send(res, 'message_delta', {
    delta: { stop_reason: reply.kind === 'final' ? 'end_turn' : 'tool_use', stop_sequence: null },
    usage: { ...input, output_tokens },
  });
  send(res, 'message_stop', {});
  res.end();
}

/** The same reply as one JSON body (a request with `stream: false`). */
export function messagesReplyJson(
  model: string,
  reply: ScriptedReply,
  envelope: ReplyEnvelope,
  usage: AnthropicUsageReport,
): object {
  const thinking = {
    type: 'thinking',
    thinking: envelope.thought,
    signature: Buffer.from(`sig:${envelope.serial}:${envelope.thought}`).toString('base64'),
  };
  const blocks = reply.kind === 'final' ? [{ type: 'text', text: reply.text }] : toolUses(reply, envelope);
  return {
    id: `msg_fake${envelope.serial}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [thinking, ...blocks],
    stop_reason: reply.kind === 'final' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage,
  };
}
