import { type PreparedExchange, savedTokensOf } from '../exchange.js';
import { distilHeaders, readUpstreamBody, sendBody } from '../http/relay.js';
import type { UpstreamResponse } from '../http/upstream.js';
import type { BilledUsage } from '../savings/billed-usage.js';
import { endsAsIs, type ReplyChannel, type RoundRead, type TurnEnding } from './expand-loop.js';

/** How one API's non-streaming reply bodies are read and joined. */
export interface JsonReplyCodec<Body, Reply> {
  /** What a body is called in the error for an unreadable continuation: message, completion, response. */
  readonly noun: string;
  /** The validated body, or null when it is not one the proxy can read. */
  parse(raw: Buffer): Body | null;
  /** The round as the loop reads it. */
  round(body: Body): { reply: Reply; usage: BilledUsage; model: string | undefined };
  /** The one body the client gets when rounds were spliced: every round's body so far, in order. */
  merge(bodies: readonly Body[], ending: TurnEnding): unknown;
}

const RELAYED: RoundRead<never> = Object.freeze({ kind: 'relayed' });

/**
 * The expand loop's non-streaming side: each round's body is read whole; the client gets the first
 * round's bytes as they came when nothing was spliced, else one body joining every round. An upstream
 * error at any step reaches the client with its own status and body.
 */
export class JsonChannel<Body, Reply> implements ReplyChannel<Reply> {
  readonly #bodies: Body[] = [];
  #last: { raw: Buffer; headers: UpstreamResponse['headers'] } | null = null;

  constructor(
    private readonly exchange: PreparedExchange,
    private readonly codec: JsonReplyCodec<Body, Reply>,
  ) {}

  /** Reads one round's body; an error, or a first body the proxy cannot read, goes to the client as it is. */
  async read(upstream: UpstreamResponse, round: number): Promise<RoundRead<Reply>> {
    const raw = await readUpstreamBody(upstream, this.exchange.clock);
    const body = upstream.status === 200 ? this.codec.parse(raw) : null;
    if (body === null) {
      if (round > 0 && upstream.status === 200) {
        throw new Error(`upstream continuation returned an unreadable ${this.codec.noun}`);
      }
      await this.#send(upstream.status, upstream.headers, raw);
      return RELAYED;
    }
    this.#bodies.push(body);
    this.#last = { raw, headers: upstream.headers };
    return { kind: 'reply', final: false, ...this.codec.round(body) };
  }

  async finish(ending: TurnEnding): Promise<void> {
    const last = this.#last!;
    const body = endsAsIs(ending)
      ? last.raw
      : Buffer.from(JSON.stringify(this.codec.merge(this.#bodies, ending)));
    await this.#send(200, last.headers, body);
  }

  /** Nothing was sent yet: the route's error handling answers (the upstream's status, or 502). */
  async fail(error: unknown): Promise<void> {
    throw error;
  }

  close(): void {}

  async #send(status: number, headers: UpstreamResponse['headers'], body: Buffer): Promise<void> {
    const { res, clock, outcome } = this.exchange;
    sendBody(res, status, headers, body, distilHeaders(clock, await savedTokensOf(outcome)));
  }
}
