import type { PreparedExchange } from '../exchange.js';
import type { DistilCallScope } from '../expand/distil-tools.js';
import type { EndingKind, ReplyTurn, RoundCalls } from '../expand/expand-loop.js';
import {
  ANTHROPIC_TOOLS_ADDED,
  answerDistilCalls,
  isAgentCall,
  isDistilCall,
  rememberSplice,
  visibleContent,
} from './distil-round.js';
import type { AnthropicMessage, AnthropicPart, MessagesRequest } from './messages-body.js';

/**
 * A Messages turn through the expand loop. A reply is its content parts; the client gets every part of
 * every round but the distil calls, and a continuation re-sends the request with each answered round
 * appended as an assistant message and a user message holding the tool_result parts.
 */
export class MessagesTurn implements ReplyTurn<AnthropicPart[]> {
  readonly provider = 'anthropic';
  readonly tools = ANTHROPIC_TOOLS_ADDED;
  readonly owesAtCap = false;
  /** Every part the client gets, in order. */
  readonly clientContent: AnthropicPart[] = [];
  /** The rounds the proxy answered, as they went upstream. */
  readonly #chain: AnthropicMessage[] = [];
  #last: AnthropicPart[] = [];
  #visible: AnthropicPart[] = [];
  #results: AnthropicPart[] = [];

  constructor(
    private readonly exchange: PreparedExchange,
    private readonly request: MessagesRequest,
  ) {}

  take(content: AnthropicPart[]): RoundCalls {
    const intercept = this.exchange.offered;
    this.#last = content;
    this.#visible = intercept ? visibleContent(content) : content;
    this.clientContent.push(...this.#visible);
    return {
      distil: intercept ? content.filter(isDistilCall).length : 0,
      agent: content.some(isAgentCall),
    };
  }

  async answer(scope: DistilCallScope): Promise<number> {
    const answered = await answerDistilCalls(this.#last, scope, this.exchange.session);
    this.#results = answered.results;
    return answered.expands;
  }

  remember(kind: EndingKind): void {
    // At the cap the calls go unanswered: upstream keeps the reply without them.
    const last = kind === 'capped' ? this.#visible : this.#last;
    const pending = kind === 'handed' ? this.#results : [];
    rememberSplice(this.exchange.session, this.clientContent, this.#chain, last, pending);
  }

  continuation(): MessagesRequest {
    this.#chain.push({ role: 'assistant', content: this.#last }, { role: 'user', content: this.#results });
    return { ...this.request, messages: [...this.request.messages, ...this.#chain] };
  }
}
