import type { PreparedExchange } from '../exchange.js';
import type { DistilCallScope } from '../expand/distil-tools.js';
import type { EndingKind, ReplyTurn, RoundCalls } from '../expand/expand-loop.js';
import type { ResponseBody, ResponseItem, ResponsesRequest } from './responses-body.js';
import {
  answerResponseCalls,
  continuationRequest,
  isAgentItem,
  isDistilItem,
  RESPONSES_TOOLS_ADDED,
  rememberResponseSplice,
} from './responses-distil.js';

/**
 * A Responses turn through the expand loop. A reply is a response object; the client gets the first
 * response's id (its next request chains on it, and the proxy maps it to the last one) with every
 * visible output item of every round. At the loop cap the distil calls are answered all the same and
 * their outputs go with the client's next request: a stored response needs an output for each call.
 */
export class ResponsesTurn implements ReplyTurn<ResponseBody> {
  readonly provider = 'openai';
  readonly tools = RESPONSES_TOOLS_ADDED;
  readonly owesAtCap = true;
  /** Every output item the client gets, in order. */
  readonly visible: ResponseItem[] = [];
  /** Every item that went upstream: each round's output, and the distil outputs answered. */
  readonly #history: ResponseItem[] = [];
  /** The id of the first response: the one the client holds. */
  firstId: string | null = null;
  #last: ResponseBody | null = null;
  #outputs: ResponseItem[] = [];

  /** `link` ties a response id to the conversation's session (a client may chain on any of them). */
  constructor(
    private readonly exchange: PreparedExchange,
    private readonly request: ResponsesRequest,
    private readonly link: (responseId: string) => void,
  ) {}

  take(reply: ResponseBody): RoundCalls {
    this.#last = reply;
    this.firstId ??= reply.id;
    this.link(reply.id);
    const output = reply.output ?? [];
    const distil = this.exchange.offered ? output.filter(isDistilItem) : [];
    this.visible.push(...output.filter((item) => !distil.includes(item)));
    this.#history.push(...output);
    return { distil: distil.length, agent: output.some(isAgentItem) };
  }

  async answer(scope: DistilCallScope): Promise<number> {
    this.#outputs = await answerResponseCalls(this.#last!.output ?? [], scope, this.exchange.session);
    return this.#outputs.length;
  }

  remember(kind: EndingKind): void {
    const pending = kind === 'answered' ? [] : this.#outputs;
    const { session } = this.exchange;
    rememberResponseSplice(
      session,
      this.request,
      this.firstId!,
      this.#last!.id,
      this.visible,
      this.#history,
      pending,
    );
  }

  continuation(): ResponsesRequest {
    this.#history.push(...this.#outputs);
    return continuationRequest(this.request, this.#history, this.#last!.id, this.#outputs);
  }
}
