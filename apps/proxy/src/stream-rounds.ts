import { type Exchange, isEventStream, postUpstream } from './exchange.js';
import type { ClientStream } from './http/client-stream.js';
import { streamErrorEvent } from './http/provider-errors.js';
import { readUpstreamBody } from './http/relay.js';
import type { UpstreamResponse } from './http/upstream.js';

/** The wire format of a streamed turn, which decides how an in-stream error is written. */
export type StreamFormat = 'anthropic' | 'openai-chat' | 'openai-responses';

/**
 * Posts the next round of a streamed turn's expand loop. The client already holds a 200 and events, so an
 * upstream that answers with anything but an event stream is reported in the stream, in the client's own
 * format, and `null` tells the caller to end it.
 */
export async function continueStream(
  exchange: Exchange,
  client: ClientStream,
  format: StreamFormat,
  body: unknown,
): Promise<UpstreamResponse | null> {
  const next = await postUpstream(exchange, JSON.stringify(body), true);
  if (next.status === 200 && isEventStream(next)) return next;
  const text = (await readUpstreamBody(next, exchange.clock)).toString('utf8');
  await client.write(streamErrorEvent(format, upstreamFailure(next.status, text)));
  return null;
}

/** Reports a stream that failed under the proxy, unless the client is the one that went away. */
export async function reportStreamFailure(
  exchange: Exchange,
  client: ClientStream,
  format: StreamFormat,
  error: unknown,
): Promise<void> {
  if (exchange.signal.aborted) return;
  const reason = error instanceof Error ? error.message : String(error);
  await client.write(streamErrorEvent(format, `proxy: upstream stream failed: ${reason}`));
}

/** The message of an upstream error body (`{"error":{"message":…}}` in every dialect), else its start. */
function upstreamFailure(status: number, text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return `upstream ${status}: ${message}`;
  } catch {
    // not JSON: fall through
  }
  return `upstream ${status}: ${text.slice(0, 500)}`;
}
