import type { ServerResponse } from 'node:http';
import { callsOf, type ReplyEnvelope, type ScriptedReply } from './scripted-reply.js';

/** Usage as the Responses API reports it: `input_tokens` includes the cached ones. */
export interface ResponsesUsageReport {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

/** The output items of one reply: an encrypted reasoning item, then the call or the message. */
export function replyItems(reply: ScriptedReply, envelope: ReplyEnvelope): Record<string, unknown>[] {
  const reasoning = {
    type: 'reasoning',
    id: `rs_fake${envelope.serial}`,
    summary: [],
    // Opaque to every client and proxy: the provider alone can read it back.
    encrypted_content: Buffer.from(`enc:${envelope.serial}:${envelope.thought}`).toString('base64'),
  };
  if (reply.kind === 'tool') {
    const suffix = (i: number): string => (i === 0 ? `${envelope.serial}` : `${envelope.serial}_${i}`);
    return [
      reasoning,
      ...callsOf(reply).map((call, i) => ({
        type: 'function_call',
        id: `fc_fake${suffix(i)}`,
        call_id: `call_fake${suffix(i)}`,
        name: call.name,
        arguments: JSON.stringify(call.input),
        status: 'completed',
      })),
    ];
  }
  if (reply.kind === 'custom_tool') {
    return [
      reasoning,
      {
        type: 'custom_tool_call',
        id: `ctc_fake${envelope.serial}`,
        call_id: `call_fake${envelope.serial}`,
        name: reply.name,
        input: reply.input,
        status: 'completed',
      },
    ];
  }
  return [
    reasoning,
    {
      type: 'message',
      id: `msg_fake${envelope.serial}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    },
  ];
}

function send(res: ServerResponse, type: string, data: object, sequence: { n: number }): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence.n++, ...data })}\n\n`);
}

/**
 * Streams one Responses reply as Codex consumes it: response.created, per item output_item.added /
 * (text deltas) / output_item.done, then response.completed carrying the usage.
 */
export function streamResponsesReply(
  res: ServerResponse,
  model: string,
  reply: ScriptedReply,
  envelope: ReplyEnvelope,
  usage: ResponsesUsageReport,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const sequence = { n: 0 };
  const id = `resp_fake${envelope.serial}`;
  const items = replyItems(reply, envelope);
  send(
    res,
    'response.created',
    { response: { id, object: 'response', model, status: 'in_progress', output: [] } },
    sequence,
  );
  items.forEach((item, index) => {
    send(
      res,
      'response.output_item.added',
      { output_index: index, item: { ...item, status: 'in_progress' } },
      sequence,
    );
    if (item.type === 'message') {
      send(
        res,
        'response.output_text.delta',
        { output_index: index, content_index: 0, item_id: item.id, delta: (reply as { text: string }).text },
        sequence,
      );
    }
    send(res, 'response.output_item.done', { output_index: index, item }, sequence);
  });
  send(
    res,
    'response.completed',
    { response: { id, object: 'response', model, status: 'completed', output: items, usage } },
    sequence,
  );
  res.end();
}
