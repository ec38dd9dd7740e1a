import type { PreparedExchange } from '../exchange.js';
import type { DistilCallScope } from '../expand/distil-tools.js';
import type { EndingKind, ReplyTurn, RoundCalls } from '../expand/expand-loop.js';
import type { ChatMessage, ChatRequest, ChatToolCall } from './chat-body.js';
import { answerChatCalls, CHAT_TOOLS_ADDED, isDistilToolCall, rememberChatSplice } from './chat-distil.js';

/**
 * A Chat Completions turn through the expand loop. A reply is the assistant message as it goes back
 * upstream; the client gets one message joining the text of every round and carrying only its own tool
 * calls, and a continuation re-sends the request with each answered message and its `tool` messages.
 */
export class ChatTurn implements ReplyTurn<ChatMessage> {
  readonly provider = 'openai';
  readonly tools = CHAT_TOOLS_ADDED;
  readonly owesAtCap = false;
  readonly #chain: ChatMessage[] = [];
  #text = '';
  #last: ChatMessage = { role: 'assistant', content: null };
  #own: ChatToolCall[] = [];
  #results: ChatMessage[] = [];

  constructor(
    private readonly exchange: PreparedExchange,
    private readonly request: ChatRequest,
  ) {}

  take(message: ChatMessage): RoundCalls {
    const calls = message.tool_calls ?? [];
    this.#last = message;
    this.#text += typeof message.content === 'string' ? message.content : '';
    this.#own = calls.filter((call) => !isDistilToolCall(call));
    return {
      distil: this.exchange.offered ? calls.filter(isDistilToolCall).length : 0,
      agent: this.#own.length > 0,
    };
  }

  async answer(scope: DistilCallScope): Promise<number> {
    this.#results = await answerChatCalls(this.#last.tool_calls ?? [], scope, this.exchange.session);
    return this.#results.length;
  }

  /**
   * The message the client gets: the last one's fields with the text of every round (null when there
   * is none, once distil calls were taken out) and only the client's own tool calls.
   */
  clientMessage(kind: EndingKind): ChatMessage {
    if (kind === 'answered') return { ...this.#last, content: this.#text };
    const message: ChatMessage = {
      ...this.#last,
      content: this.#text.length > 0 ? this.#text : null,
      tool_calls: this.#own,
    };
    if (this.#own.length === 0) delete message.tool_calls;
    return message;
  }

  remember(kind: EndingKind): void {
    const { session } = this.exchange;
    const client = this.clientMessage(kind);
    if (kind === 'capped') {
      // The calls go unanswered: upstream keeps the message without them.
      const unanswered: ChatMessage = {
        ...this.#last,
        content: typeof this.#last.content === 'string' ? this.#last.content : '',
      };
      delete unanswered.tool_calls;
      rememberChatSplice(session, client, this.#chain, unanswered, []);
    } else {
      rememberChatSplice(session, client, this.#chain, this.#last, kind === 'handed' ? this.#results : []);
    }
  }

  continuation(): ChatRequest {
    this.#chain.push(this.#last, ...this.#results);
    return { ...this.request, messages: [...this.request.messages, ...this.#chain] };
  }
}
