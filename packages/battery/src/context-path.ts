import type { Block, KeepModel, RestoreStore, TierConfig } from '@distil/contract';
import { collectAnchors, compressBlock, detectKind, expand, Session } from '@distil/core';

/**
 * One request of a conversation, as an agent sends it: the whole context so far (append-only). `user`
 * holds the trusted texts (the first is the opening message), `tools` every tool result in order.
 */
export interface ConversationRequest {
  readonly user: readonly string[];
  readonly tools: readonly string[];
}

/** What reached the model for one request: every tool result and user text, in order. */
export interface ForwardedRequest {
  readonly tools: readonly string[];
  readonly user: readonly string[];
}

/** The answer Distil gives when the model asks to expand a handle. */
export interface ExpandAnswer {
  readonly resolved: boolean;
  /** The original bytes, or the reason it was refused. */
  readonly text: string;
}

/** One conversation through a path: its requests share a session, as one agent's turns do. */
export interface Conversation {
  send(request: ConversationRequest): Promise<ForwardedRequest>;
  /** Asks Distil to expand `handle` the way the model would, in this conversation. */
  expand(handle: string): Promise<ExpandAnswer>;
}

/**
 * A way hostile input reaches the model: the session layer in process, or a real proxy on loopback. Every
 * path shares one RestoreStore with the battery, which checks handles against it.
 */
export interface ContextPath {
  readonly name: string;
  readonly store: RestoreStore;
  conversation(): Conversation;
  close(): Promise<void>;
}

/** What the in-process path needs: the pipeline's configured parts. */
export interface SessionPathOptions {
  readonly keepModel: KeepModel;
  readonly store: RestoreStore;
  readonly tiers: TierConfig;
}

/**
 * The proxy's compression path without the HTTP around it: one core Session per conversation whose
 * block compressor is compressBlock with the configured keep model, the block's kind detected from its
 * text and the anchors collected from the trusted texts — what the proxy's session does for each new
 * tool result. Expands go through the public `expand`, as the proxy's distil_expand does.
 */
export function sessionPath(options: SessionPathOptions): ContextPath {
  const { keepModel, store, tiers } = options;
  return {
    name: 'session',
    store,
    conversation: () => new SessionConversation(keepModel, store, tiers),
    close: async () => {},
  };
}

class SessionConversation implements Conversation {
  readonly #session: Session;
  readonly #anchors = new WeakMap<Block, ReadonlySet<string>>();
  #sent: string[] = [];
  #ids = 0;

  constructor(
    private readonly keepModel: KeepModel,
    private readonly store: RestoreStore,
    private readonly tiers: TierConfig,
  ) {
    this.#session = new Session({
      store,
      compress: (block) =>
        compressBlock(block, {
          keepModel: this.keepModel,
          store: this.store,
          tiers: this.tiers,
          anchors: this.#anchors.get(block) ?? new Set(),
        }),
    });
  }

  async send(request: ConversationRequest): Promise<ForwardedRequest> {
    const known = this.#sent.length;
    request.tools.slice(0, known).forEach((text, i) => {
      if (text !== this.#sent[i])
        throw new Error(`tool result ${i + 1} was edited: a conversation only appends`);
    });
    const anchors = collectAnchors(request.user);
    const blocks = request.tools.slice(known).map((text): Block => {
      const block: Block = {
        id: `t${this.#ids++}`,
        role: 'tool',
        kind: detectKind(text),
        text,
        trusted: false,
      };
      this.#anchors.set(block, anchors);
      return block;
    });
    if (blocks.length > 0) await this.#session.addTurn(blocks);
    this.#sent = [...request.tools];
    return { tools: this.#session.context.map((sent) => sent.text), user: [...request.user] };
  }

  async expand(handle: string): Promise<ExpandAnswer> {
    try {
      const text = new TextDecoder().decode(await expand(this.store, handle));
      // As the proxy does: what the model expanded is sent whole from then on (sticky expansion).
      this.#session.markExpanded(handle);
      return { resolved: true, text };
    } catch (error) {
      return { resolved: false, text: error instanceof Error ? error.message : String(error) };
    }
  }
}
