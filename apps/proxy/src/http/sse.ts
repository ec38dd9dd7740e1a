/**
 * Server-sent events as the provider APIs stream them (WHATWG HTML §9.2 "event stream" format). Written
 * here rather than pulled in because the proxy needs more than a client parser gives: the exact raw text
 * of each event, so that events the proxy does not change are relayed byte for byte.
 */

/** One event: its `event:` name (if any), its joined `data:` lines, and its raw text (with terminator). */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  readonly raw: string;
}

/**
 * Where an event ends: a line's end (CRLF, LF or CR) straight followed by an empty line's end. A lone CR
 * that closes the blank line after a CRLF or LF counts only once the next character shows it is not the
 * first half of a CRLF: a stream that stops there was cut mid-terminator, and is reported as cut. After
 * a lone CR the stream's lines end in CR, so a second CR ends the event at once (with its LF, if one came).
 */
const EVENT_END = /(?:\r\n|\n)(?:\r\n|\n|\r(?=[^\n]))|\r\r\n?/;

/** Splits a byte stream into events, incrementally; a UTF-8 character split across chunks is kept whole. */
export class SseParser {
  readonly #decoder = new TextDecoder('utf-8');
  #buffer = '';

  /** Feeds one chunk; returns the events it completed. */
  push(chunk: Uint8Array): SseEvent[] {
    this.#buffer += this.#decoder.decode(chunk, { stream: true });
    return this.#drain(false);
  }

  /** Ends the stream; returns a final event that lacked its blank line, if any. */
  end(): SseEvent[] {
    this.#buffer += this.#decoder.decode();
    return this.#drain(true);
  }

  #drain(final: boolean): SseEvent[] {
    const events: SseEvent[] = [];
    for (;;) {
      const boundary = EVENT_END.exec(this.#buffer);
      if (!boundary) break;
      const end = boundary.index + boundary[0].length;
      const raw = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end);
      events.push(parseEvent(raw));
    }
    if (final && this.#buffer.trim().length > 0) {
      events.push(parseEvent(`${this.#buffer}\n\n`));
      this.#buffer = '';
    }
    return events;
  }
}

function parseEvent(raw: string): SseEvent {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of raw.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  // A comment-only block (a keep-alive) has no fields; it is still relayed verbatim through `raw`.
  return { event, data: data.join('\n'), raw };
}

/** Formats one event the way Anthropic writes them: `event: NAME` then `data: JSON`, then a blank line. */
export function namedEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** Formats one data-only event, as OpenAI Chat Completions writes its chunks. */
export function dataEvent(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}
