import type { AnthropicPart } from './messages-body.js';

/** A streamed content block being assembled; tool inputs arrive as JSON text in pieces. */
interface OpenBlock {
  part: AnthropicPart;
  json: string;
  tracksJson: boolean;
}

/**
 * Rebuilds an assistant message's content from Anthropic stream events (content_block_start, _delta,
 * _stop), so the proxy can send it back upstream verbatim in a continuation: text, tool inputs, thinking
 * with its signature, redacted thinking and server tool blocks all come out as the API would have
 * returned them in a non-streaming response.
 */
export class ContentAccumulator {
  readonly #blocks = new Map<number, OpenBlock>();

  /** Applies one parsed event; events other than content_block_* are ignored. */
  apply(event: { type?: unknown; index?: unknown; content_block?: unknown; delta?: unknown }): void {
    if (typeof event.index !== 'number') return;
    if (event.type === 'content_block_start') {
      const part = { ...(event.content_block as AnthropicPart) };
      const tracksJson =
        part.type === 'tool_use' || part.type === 'server_tool_use' || part.type === 'mcp_tool_use';
      this.#blocks.set(event.index, { part, json: '', tracksJson });
      return;
    }
    const open = this.#blocks.get(event.index);
    if (!open) return;
    if (event.type === 'content_block_delta') applyDelta(open, event.delta as Record<string, unknown>);
    else if (event.type === 'content_block_stop' && open.tracksJson && open.json.length > 0) {
      try {
        open.part.input = JSON.parse(open.json);
      } catch {
        // Left as started: the upstream sent a malformed input, and the continuation will say so.
      }
    }
  }

  /** The content so far, by index. */
  content(): AnthropicPart[] {
    return [...this.#blocks.entries()].sort(([a], [b]) => a - b).map(([, open]) => open.part);
  }

  /** The block at an upstream index. */
  part(index: number): AnthropicPart | undefined {
    return this.#blocks.get(index)?.part;
  }
}

function applyDelta(open: OpenBlock, delta: Record<string, unknown>): void {
  const part = open.part;
  switch (delta.type) {
    case 'text_delta':
      part.text = String(part.text ?? '') + String(delta.text ?? '');
      break;
    case 'input_json_delta':
      open.json += String(delta.partial_json ?? '');
      break;
    case 'thinking_delta':
      part.thinking = String(part.thinking ?? '') + String(delta.thinking ?? '');
      break;
    case 'signature_delta':
      part.signature = delta.signature;
      break;
    case 'citations_delta':
      part.citations = [...((part.citations as unknown[] | null | undefined) ?? []), delta.citation];
      break;
    default:
      break;
  }
}
