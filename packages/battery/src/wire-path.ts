import { randomUUID } from 'node:crypto';
import type { RestoreStore } from '@distil/contract';
import { type CapturedRequest, CaptureUpstream } from './capture-upstream.js';
import type {
  ContextPath,
  Conversation,
  ConversationRequest,
  ExpandAnswer,
  ForwardedRequest,
} from './context-path.js';

/** A proxy the wire path drives: started against the capture upstream, closed at the end. */
export interface ProxyUnderTest {
  /** Base URL of the proxy (Anthropic clients post to `<url>/v1/messages`). */
  readonly url: string;
  close(): Promise<void>;
}

/** What the wire path needs: the store the proxy uses, and how to start it against an upstream. */
export interface WirePathOptions {
  readonly store: RestoreStore;
  /** Starts a proxy whose Anthropic upstream is `upstream` and whose RestoreStore is `store`. */
  readonly startProxy: (upstream: string) => Promise<ProxyUnderTest>;
  /** The API key clients send (default a fixed test key); it goes upstream untouched. */
  readonly apiKey?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: Anthropic message JSON of several shapes
type Message = { role: 'user' | 'assistant'; content: any[] };

/**
 * Hostile input through a real proxy: each conversation is a series of Anthropic Messages requests to the
 * proxy on loopback (tool results as `tool_result` parts, user texts as `text` parts, the history
 * append-only), and what the model would read is taken from the requests the capture upstream received.
 * An expand is the model calling `distil_expand`, answered by the proxy's own expand loop.
 */
export async function anthropicWirePath(options: WirePathOptions): Promise<ContextPath> {
  const upstream = await new CaptureUpstream().start();
  let proxy: ProxyUnderTest;
  try {
    proxy = await options.startProxy(upstream.url);
  } catch (error) {
    await upstream.close();
    throw error;
  }
  const apiKey = options.apiKey ?? 'sk-ant-validate-0000';
  return {
    name: 'proxy',
    store: options.store,
    conversation: () => new WireConversation(proxy.url, upstream, apiKey),
    close: async () => {
      await proxy.close();
      await upstream.close();
    },
  };
}

class WireConversation implements Conversation {
  readonly #session = `validate-${randomUUID()}`;
  readonly #messages: Message[] = [];
  #tools = 0;
  #users = 0;
  #calls = 0;

  constructor(
    private readonly proxyUrl: string,
    private readonly upstream: CaptureUpstream,
    private readonly apiKey: string,
  ) {}

  async send(request: ConversationRequest): Promise<ForwardedRequest> {
    this.#append(request);
    const seen = await this.#post();
    const last = seen.at(-1);
    if (!last) throw new Error('the proxy forwarded nothing upstream');
    return forwardedOf(last.json?.messages ?? []);
  }

  async expand(handle: string): Promise<ExpandAnswer> {
    const id = `toolu_expand_${++this.#calls}`;
    this.upstream.script([{ type: 'tool_use', id, name: 'distil_expand', input: { handle } }]);
    const seen = await this.#post();
    this.upstream.clearScript();
    for (const request of seen) {
      const messages: Message[] = request.json?.messages ?? [];
      for (const part of messages.at(-1)?.content ?? []) {
        if (part?.type === 'tool_result' && part.tool_use_id === id) {
          return { resolved: part.is_error !== true, text: String(part.content) };
        }
      }
    }
    // The proxy answers only for handles its context showed; otherwise the call went to the client.
    return {
      resolved: false,
      text: 'the proxy did not answer: this conversation was never shown that handle',
    };
  }

  /** Extends the history: new tool results after an assistant turn calling for them, new user texts. */
  #append(request: ConversationRequest): void {
    const newUser = request.user.slice(this.#users).map((text) => ({ type: 'text', text }));
    const newTools = request.tools.slice(this.#tools);
    const opening = this.#messages.length === 0;
    if (opening) {
      this.#messages.push({
        role: 'user',
        content: newUser.length > 0 ? newUser : [{ type: 'text', text: 'go' }],
      });
    } else if (newTools.length === 0 && newUser.length > 0) {
      this.#messages.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
      this.#messages.push({ role: 'user', content: newUser });
    }
    if (newTools.length > 0) {
      const ids = newTools.map((_, i) => `toolu_${this.#tools + i + 1}`);
      this.#messages.push({
        role: 'assistant',
        content: ids.map((id) => ({ type: 'tool_use', id, name: 'bash', input: { cmd: 'run' } })),
      });
      const results = newTools.map((text, i) => ({
        type: 'tool_result',
        tool_use_id: ids[i],
        content: text,
      }));
      // The opening message already carries the first request's user texts.
      this.#messages.push({ role: 'user', content: [...results, ...(opening ? [] : newUser)] });
    }
    this.#tools = request.tools.length;
    this.#users = request.user.length;
  }

  /** Posts the history to the proxy; returns the requests the upstream received meanwhile. */
  async #post(): Promise<readonly CapturedRequest[]> {
    const before = this.upstream.received.length;
    const response = await fetch(`${this.proxyUrl}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'x-api-key': this.apiKey,
        'x-distil-session': this.#session,
      },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: this.#messages }),
    });
    const body = await response.text();
    if (response.status !== 200)
      throw new Error(`the proxy answered ${response.status}: ${body.slice(0, 300)}`);
    return this.upstream.received.slice(before);
  }
}

/** The tool results and user texts of a forwarded Messages request, in order. */
function forwardedOf(messages: readonly Message[]): ForwardedRequest {
  const tools: string[] = [];
  const user: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const part of message.content) {
      if (part?.type === 'tool_result') {
        tools.push(
          typeof part.content === 'string'
            ? part.content
            : (part.content as { text?: string }[]).map((inner) => inner.text ?? '').join(''),
        );
      } else if (part?.type === 'text') user.push(String(part.text));
    }
  }
  return { tools, user };
}
